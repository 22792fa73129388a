#include "tensor/StatsPanel.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "tensor/StatsJob.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {
namespace {

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("\u2014"); // no finite value
    return QString::number(v, 'g', 6);
}

} // namespace

StatsPanel::StatsPanel(StatsJob* job, QWidget* parent)
    : TensorPanel(parent), m_job(job), m_status(new QLabel(this)), m_spinner(new QProgressBar(this)),
      m_values(new QWidget(this))
{
    auto* box = new QGroupBox(tr("Statistics"), this);
    auto* boxLayout = new QVBoxLayout(box);
    auto* statusRow = new QHBoxLayout;
    m_spinner->setRange(0, 0); // busy indicator: the engine reports no progress for one tensor
    m_spinner->setMaximumWidth(120);
    m_spinner->setMaximumHeight(14);
    m_spinner->setTextVisible(false);
    statusRow->addWidget(m_spinner);
    statusRow->addWidget(m_status, 1);
    boxLayout->addLayout(statusRow);

    // Three label/value pairs per row keep the block short enough to leave room for the plots.
    auto* grid = new QGridLayout(m_values);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(14);
    const std::pair<const char*, QString> fields[] = {
        {"count", tr("Elements")},
        {"nan", tr("NaN")},
        {"posinf", tr("+Inf")},
        {"neginf", tr("\u2212Inf")},
        {"zeros", tr("Zeros")},
        {"f16overflow", tr("F16 overflow")},
        {"min", tr("Min")},
        {"max", tr("Max")},
        {"mean", tr("Mean")},
        {"std", tr("Std")},
        {"absmax", tr("Abs max")},
        {"l2", tr("L2 norm")},
        {"zeroshare", tr("Zero share")},
        {"p1", tr("p1")},
        {"p5", tr("p5")},
        {"p25", tr("p25")},
        {"p50", tr("Median")},
        {"p75", tr("p75")},
        {"p95", tr("p95")},
        {"p99", tr("p99")},
    };
    int i = 0;
    for (const auto& [key, title] : fields) {
        auto* caption = new QLabel(title + QLatin1Char(':'), m_values);
        caption->setForegroundRole(QPalette::PlaceholderText);
        auto* value = new QLabel(m_values);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(caption, i / 3, (i % 3) * 2);
        grid->addWidget(value, i / 3, (i % 3) * 2 + 1);
        m_labels.insert(QLatin1String(key), value);
        ++i;
    }
    grid->setColumnStretch(5, 1);
    boxLayout->addWidget(m_values);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    connect(m_job, &StatsJob::ready, this, [this](int tensor, int) { onReady(tensor); });
    showTensor(nullptr, -1);
}

void StatsPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_tensor = model ? tensor : -1;
    setVisible(m_tensor >= 0);
    if (m_tensor < 0) {
        m_job->cancel();
        return;
    }
    showEntry(m_job->request(m_tensor, m_job->bins()).get());
}

void StatsPanel::onReady(int tensor)
{
    if (tensor == m_tensor)
        showEntry(m_job->cached(tensor, m_job->bins()).get());
}

void StatsPanel::showEntry(const TensorStatsEntry* entry)
{
    m_spinner->setVisible(!entry);
    m_status->setVisible(true);
    m_values->setVisible(entry && !entry->error);
    for (QLabel* label : std::as_const(m_labels))
        label->clear();
    if (!entry) {
        m_status->setText(tr("Computing\u2026"));
        return;
    }
    if (entry->error && entry->stats.elements == 0) {
        m_status->setText(tr("Could not compute: %1").arg(toolTipText(entry->error->toString())));
        m_values->setVisible(false);
        return;
    }
    m_values->setVisible(true);
    const ValueStats& v = entry->stats.values;
    m_status->setText(entry->stats.real ? tr("Complex tensor: statistics of the magnitude |z|.") : QString());
    m_status->setVisible(!m_status->text().isEmpty());
    auto set = [this](const char* key, const QString& text) {
        m_labels.value(QLatin1String(key))->setText(text);
    };
    set("count", formatGrouped(v.count));
    set("nan", formatGrouped(v.nan));
    set("posinf", formatGrouped(v.posinf));
    set("neginf", formatGrouped(v.neginf));
    set("zeros", formatGrouped(v.zeros));
    set("f16overflow", formatGrouped(v.f16Overflow));
    set("min", number(v.min));
    set("max", number(v.max));
    set("mean", number(v.mean));
    set("std", number(v.std));
    set("absmax", number(v.absmax));
    set("l2", number(v.l2));
    set("zeroshare", std::isnan(v.zeroShare())
                         ? number(v.zeroShare())
                         : QString::number(100 * v.zeroShare(), 'g', 4) + QLatin1Char('%'));
    for (std::size_t l = 0; l < Quantiles::kNames.size(); ++l)
        set(Quantiles::kNames[l], number(v.quantiles ? v.quantiles->values[l] : std::nan("")));
    // Bad values are what a user looks for: make them stand out.
    for (const char* key : {"nan", "posinf", "neginf"}) {
        QLabel* label = m_labels.value(QLatin1String(key));
        label->setStyleSheet(label->text() != QLatin1String("0")
                                 ? QStringLiteral("color: #d03030; font-weight: bold;")
                                 : QString());
    }
}

QString StatsPanel::value(const QString& key) const
{
    const QLabel* label = m_labels.value(key);
    return label ? label->text() : QString();
}

bool StatsPanel::isComputing() const
{
    return m_tensor >= 0 && !m_job->cached(m_tensor, m_job->bins());
}

} // namespace ts::ui
