#pragma once

#include "tensor/TensorPanel.h"

#include <QHash>

#include <utility>
#include <vector>

class QGridLayout;
class QLabel;
class QProgressBar;

namespace ts::ui {

class StatsJob;
struct TensorStatsEntry;

// The statistics of the selected tensor: counts of NaN, Inf, zeros, the extremes, mean, std,
// absmax, L2, F16 overflows, the share of zeros and the quantiles p1 ... p99, with a spinner while
// the analysis engine runs.
class StatsPanel final : public TensorPanel {
    Q_OBJECT
public:
    StatsPanel(StatsJob* job, QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    // The text of one value: "count", "nan", "posinf", "neginf", "zeros", "min", "max", "mean",
    // "std", "absmax", "l2", "f16overflow", "zeroshare", "p1", "p5", "p25", "p50", "p75", "p95",
    // "p99"; empty while computing.
    QString value(const QString& key) const;
    bool isComputing() const;
    int pairsPerRow() const { return m_perRow; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onReady(int tensor);
    void showEntry(const TensorStatsEntry* entry);
    // As many label/value pairs per row as the width holds (two to five): a fixed three left
    // half of a wide pane empty and made seven rows, more than the details' share of a 1280x820
    // window shows, so the last rows were cut off under the plots.
    void arrange(int width);

    StatsJob* m_job;
    int m_tensor = -1;
    QLabel* m_status;
    QProgressBar* m_spinner;
    QWidget* m_values;
    QGridLayout* m_grid;
    std::vector<std::pair<QLabel*, QLabel*>> m_pairs; // caption, value; in reading order
    int m_perRow = 0;
    QHash<QString, QLabel*> m_labels;
};

} // namespace ts::ui
