#include "tensor/AnomalyNavigator.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "tensor/StatsJob.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include <algorithm>
#include <utility>

namespace ts::ui {
namespace {

using Kind = AnomalyIndex::Kind;

constexpr int bit(Kind kind)
{
    return 1 << static_cast<int>(kind);
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::NaN:
        return AnomalyNavigator::tr("NaN");
    case Kind::PosInf:
        return AnomalyNavigator::tr("+Inf");
    case Kind::NegInf:
        return AnomalyNavigator::tr("\u2212Inf");
    case Kind::Outlier:
        return AnomalyNavigator::tr("outlier");
    }
    return {};
}

} // namespace

AnomalyNavigator::AnomalyNavigator(StatsJob* stats, QWidget* parent)
    : TensorPanel(parent), m_stats(stats), m_kinds(new QComboBox(this)), m_status(new QLabel(this)),
      m_nextAction(new QAction(tr("Next Anomaly"), this)),
      m_previousAction(new QAction(tr("Previous Anomaly"), this))
{
    m_kinds->setObjectName(QStringLiteral("anomalyKinds"));
    m_status->setObjectName(QStringLiteral("anomalyStatus"));
    m_nextAction->setObjectName(QStringLiteral("nextAnomaly"));
    m_previousAction->setObjectName(QStringLiteral("previousAnomaly"));
    m_kinds->addItem(tr("NaN, Inf or outlier"),
                     bit(Kind::NaN) | bit(Kind::PosInf) | bit(Kind::NegInf) | bit(Kind::Outlier));
    m_kinds->addItem(tr("NaN"), bit(Kind::NaN));
    m_kinds->addItem(tr("Inf"), bit(Kind::PosInf) | bit(Kind::NegInf));
    m_kinds->addItem(tr("Outlier"), bit(Kind::Outlier));
    m_kinds->setToolTip(tr("What Next and Previous walk to. Outliers are the scan's: more than 100 standard "
                           "deviations from the rest of the tensor."));
    // F3 on every platform (QKeySequence::FindNext is Ctrl+G on some, which users of this view do
    // not expect).
    m_nextAction->setShortcut(QKeySequence(Qt::Key_F3));
    m_previousAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    // The tensor view is where the walk makes sense, wherever the focus is in it (the tree, the
    // grid); another document's hidden view does not answer.
    for (QAction* a : {m_nextAction, m_previousAction})
        a->setShortcutContext(Qt::WindowShortcut);
    m_nextAction->setToolTip(tr("Go to the next NaN, Inf or outlier in the value grid and the heatmap (%1)")
                                 .arg(m_nextAction->shortcut().toString(QKeySequence::NativeText)));
    m_previousAction->setToolTip(tr("Go to the previous NaN, Inf or outlier (%1)")
                                     .arg(m_previousAction->shortcut().toString(QKeySequence::NativeText)));
    addAction(m_nextAction);
    addAction(m_previousAction);
    auto* previous = new QToolButton(this);
    previous->setDefaultAction(m_previousAction);
    auto* next = new QToolButton(this);
    next->setDefaultAction(m_nextAction);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_kinds);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status, 1);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The sentence wraps rather than widening the details pane: on one line ("Looking for NaN, Inf
    // and outliers once the statistics are in...") it pushed the tree's Bytes column out of a
    // 1280x820 window.
    m_status->setWordWrap(true);
    connect(m_nextAction, &QAction::triggered, this, [this] { step(+1); });
    connect(m_previousAction, &QAction::triggered, this, [this] { step(-1); });
    connect(m_kinds, &QComboBox::currentIndexChanged, this, [this] {
        // The walk goes on from where it is, among the kinds now chosen.
        updateState();
    });
    if (m_stats)
        connect(m_stats, &StatsJob::ready, this, &AnomalyNavigator::onStatsReady);
    updateState();
}

void AnomalyNavigator::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_model = model;
    m_tensor = model ? tensor : -1;
    m_job.cancel(); // a late result for the previous tensor is dropped
    m_index.reset();
    m_problem.clear();
    m_current = -1;
    m_pendingStep = 0;
    m_anchor.reset();
    m_statsTaken = false;
    if (m_tensor >= 0 && m_stats)
        takeStats();
    updateState();
}

void AnomalyNavigator::onStatsReady(int tensor, int /*bins*/)
{
    if (tensor == m_tensor && !m_statsTaken)
        takeStats();
}

void AnomalyNavigator::takeStats()
{
    // Any bin count: the statistics do not depend on it. The histogram panel asks for them too;
    // the StatsJob computes them once.
    const auto entry = m_stats->request(m_tensor, m_stats->bins());
    if (!entry)
        return; // ready() follows
    m_statsTaken = true;
    if (entry->error) {
        m_problem = entry->error->message;
        updateState();
        return;
    }
    const ValueStats stats = entry->stats.values;
    if (!AnomalyIndex::mayHoldAny(stats)) {
        m_index = AnomalyIndex{};
        updateState();
        emit indexReady();
        return;
    }
    m_job.start(
        [model = m_model, tensor = m_tensor, stats](const JobControl& control) {
            // The info by reference: a hostile shape's copy can be hundreds of MB.
            return AnomalyIndex::find(model->location(tensor),
                                      model->tensors()[static_cast<std::size_t>(tensor)].info, stats,
                                      control);
        },
        [this](Result<AnomalyIndex> found) {
            if (!found) {
                m_problem = found.error().message;
                emit readFailed(found.error());
                updateState();
                return;
            }
            m_index = std::move(found.value());
            updateState();
            emit indexReady();
            if (const int pending = std::exchange(m_pendingStep, 0))
                step(pending);
        });
    updateState();
}

bool AnomalyNavigator::wanted(Kind kind) const
{
    return (m_kinds->currentData().toInt() & bit(kind)) != 0;
}

bool AnomalyNavigator::step(int direction)
{
    if (m_tensor < 0)
        return false;
    if (!m_index) {
        m_pendingStep = direction; // taken when the positions arrive
        return false;
    }
    const auto& positions = m_index->positions();
    const int n = static_cast<int>(positions.size());
    if (n == 0)
        return false;
    // From the current position (or from before the first / after the last, or from where the user
    // went another way), wrapping once around.
    int at = m_current >= 0 ? m_current : (direction > 0 ? -1 : n);
    if (m_current < 0 && m_anchor) {
        // Forward: the first position past the anchor; back: the last one before it.
        const auto past = std::upper_bound(
            positions.begin(), positions.end(), *m_anchor,
            [](std::uint64_t flat, const AnomalyIndex::Position& p) { return flat < p.index; });
        const auto before = std::lower_bound(
            positions.begin(), positions.end(), *m_anchor,
            [](const AnomalyIndex::Position& p, std::uint64_t flat) { return p.index < flat; });
        at = direction > 0 ? static_cast<int>(past - positions.begin()) - 1
                           : static_cast<int>(before - positions.begin());
    }
    m_anchor.reset();
    for (int i = 0; i < n; ++i) {
        at = ((at + direction) % n + n) % n;
        if (!wanted(positions[static_cast<std::size_t>(at)].kind))
            continue;
        m_current = at;
        updateState();
        emit elementChosen(positions[static_cast<std::size_t>(at)].index);
        return true;
    }
    updateState();
    return false;
}

void AnomalyNavigator::continueFrom(std::uint64_t flat)
{
    m_anchor = flat;
    m_current = -1;
    updateState();
}

QString AnomalyNavigator::statusText() const
{
    return m_status->text();
}

void AnomalyNavigator::updateState()
{
    const bool scalar =
        m_tensor >= 0 && m_model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape.empty();
    setEnabled(m_tensor >= 0 && !scalar);
    QString text;
    bool any = false;
    if (m_tensor < 0 || scalar) {
        text.clear();
    } else if (!m_problem.isEmpty()) {
        text = tr("Cannot look for anomalies: %1").arg(itemText(m_problem));
    } else if (!m_index) {
        text = m_job.isRunning() ? tr("Finding the NaN, Inf and outliers\u2026")
                                 : tr("Looking for NaN, Inf and outliers once the statistics are in\u2026");
    } else if (m_index->total() == 0) {
        text = tr("No NaN, Inf or outlier in this tensor.");
    } else {
        const auto& positions = m_index->positions();
        for (const auto& p : positions)
            any = any || wanted(p.kind);
        if (m_current >= 0 && wanted(positions[static_cast<std::size_t>(m_current)].kind)) {
            const AnomalyIndex::Position here = positions[static_cast<std::size_t>(m_current)];
            std::uint64_t rank = 0;
            for (int i = 0; i <= m_current; ++i)
                rank += positions[static_cast<std::size_t>(i)].kind == here.kind;
            QString kind = kindName(here.kind);
            kind[0] = kind[0].toUpper(); // it starts the sentence: "Outlier 1 of 1"
            text = tr("%1 %2 of %3 at flat index %4")
                       .arg(kind, formatGrouped(rank), formatGrouped(m_index->total(here.kind)),
                            formatGrouped(here.index));
        } else if (!any) {
            text = tr("None of these in this tensor.");
        } else {
            QStringList counts;
            for (const Kind kind : {Kind::NaN, Kind::PosInf, Kind::NegInf, Kind::Outlier}) {
                if (const std::uint64_t n = m_index->total(kind))
                    counts << QStringLiteral("%1 %2").arg(formatGrouped(n), kindName(kind));
            }
            text = tr("%1 \u2014 %2 goes to the first.")
                       .arg(counts.join(QStringLiteral(", ")),
                            m_nextAction->shortcut().toString(QKeySequence::NativeText));
        }
        if (m_index->truncated())
            text += tr(" (only the first %1 are listed)").arg(formatGrouped(m_index->cap()));
    }
    m_status->setText(text);
    m_nextAction->setEnabled(m_tensor >= 0 && !scalar && (!m_index || any));
    m_previousAction->setEnabled(m_nextAction->isEnabled());
}

} // namespace ts::ui
