#pragma once

#include "analysis/AnomalyIndex.h"
#include "common/JobRunner.h"
#include "tensor/TensorPanel.h"

#include <optional>

class QAction;
class QComboBox;
class QLabel;

namespace ts::ui {

class StatsJob;

// Next / Previous anomaly (F3 / Shift+F3) in the selected tensor: once its statistics say it holds
// NaN, Inf or an extreme outlier, the tensor is read again off the UI thread for their positions
// (core AnomalyIndex, at most its first 10,000), and each step asks for the next one in element
// order (elementChosen), wrapping at the ends. A kind filter walks only NaN, only Inf or only
// outliers; the status says where the walk is ("NaN 2 of 5 at flat index 1234"). A step asked for
// while the positions are still being found is taken when they arrive.
class AnomalyNavigator final : public TensorPanel {
    Q_OBJECT
public:
    explicit AnomalyNavigator(StatsJob* stats, QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    QAction* nextAction() const { return m_nextAction; }
    QAction* previousAction() const { return m_previousAction; }
    // Steps forward (+1) or back (-1); false when there is nothing to walk to (yet).
    bool step(int direction);
    // The user went to element `flat` another way (an audit finding): the walk goes on from there.
    void continueFrom(std::uint64_t flat);
    // The positions found for the shown tensor, once they are.
    const AnomalyIndex* index() const { return m_index ? &*m_index : nullptr; }
    bool isSearching() const { return m_job.isRunning(); }
    QString statusText() const;

signals:
    // The user stepped to row-major element `flat` of the shown tensor.
    void elementChosen(std::uint64_t flat);
    // The positions for the shown tensor were found (or it was found to hold none).
    void indexReady();

private:
    void onStatsReady(int tensor, int bins);
    void takeStats();
    void updateState();
    bool wanted(AnomalyIndex::Kind kind) const;

    StatsJob* m_stats;
    JobRunner m_job{this};
    std::shared_ptr<const Checkpoint> m_model;
    int m_tensor = -1;
    bool m_statsTaken = false;
    std::optional<AnomalyIndex> m_index;
    QString m_problem;                     // why there is nothing to walk (a read error)
    int m_current = -1;                    // into m_index->positions()
    int m_pendingStep = 0;                 // a step asked for before the positions arrived
    std::optional<std::uint64_t> m_anchor; // continueFrom()'s element, until the next step
    QComboBox* m_kinds;
    QLabel* m_status;
    QAction* m_nextAction;
    QAction* m_previousAction;
};

} // namespace ts::ui
