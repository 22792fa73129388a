#include "tensor/StatsPanel.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "tensor/StatsJob.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
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

    m_grid = new QGridLayout(m_values);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
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
    for (const auto& [key, title] : fields) {
        auto* caption = new QLabel(title + QLatin1Char(':'), m_values);
        caption->setForegroundRole(QPalette::PlaceholderText);
        auto* value = new QLabel(m_values);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_pairs.emplace_back(caption, value);
        m_labels.insert(QLatin1String(key), value);
    }
    arrange(0);
    m_values->installEventFilter(this);
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
    arrange(m_values->width()); // longer (or bold) numbers may need fewer pairs per row
}

bool StatsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_values && event->type() == QEvent::Resize)
        arrange(static_cast<QResizeEvent*>(event)->size().width());
    return TensorPanel::eventFilter(watched, event);
}

void StatsPanel::arrange(int width)
{
    // The width n pairs per row need: in each of the n columns its widest caption and value,
    // values at least as wide as a typical one ("-0.00560084") so that the next tensor's numbers
    // rarely reflow the block, plus the grid's spacing.
    const int typical = m_values->fontMetrics().horizontalAdvance(QStringLiteral("-0.00560084"));
    const int spacing = m_grid->horizontalSpacing();
    const auto needed = [&](int n) {
        int total = (2 * n - 1) * spacing;
        for (int column = 0; column < n; ++column) {
            int caption = 0;
            int value = typical;
            for (std::size_t i = static_cast<std::size_t>(column); i < m_pairs.size();
                 i += static_cast<std::size_t>(n)) {
                caption = std::max(caption, m_pairs[i].first->sizeHint().width());
                value = std::max(value, m_pairs[i].second->sizeHint().width());
            }
            total += caption + value;
        }
        return total;
    };
    // No room is kept for the pane's vertical scroll bar: more pairs per row make fewer rows,
    // which can only take a scroll bar away (and widen the pane), fewer pairs can only add one
    // (and narrow it), so a change never undoes itself.
    int perRow = 5;
    while (perRow > 2 && needed(perRow) > width)
        --perRow;
    if (perRow == m_perRow)
        return;
    m_perRow = perRow;
    for (const auto& [c, v] : m_pairs) {
        m_grid->removeWidget(c);
        m_grid->removeWidget(v);
    }
    for (int column = 0; column < 10; ++column)
        m_grid->setColumnStretch(column, 0);
    for (std::size_t i = 0; i < m_pairs.size(); ++i) {
        const int row = static_cast<int>(i) / perRow;
        const int column = static_cast<int>(i) % perRow * 2;
        m_grid->addWidget(m_pairs[i].first, row, column);
        m_grid->addWidget(m_pairs[i].second, row, column + 1);
    }
    m_grid->setColumnStretch(2 * perRow - 1, 1);
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
