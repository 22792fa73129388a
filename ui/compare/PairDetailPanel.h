#pragma once

#include "common/JobRunner.h"
#include "diff/DiffReport.h"
#include "diff/PairDetail.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace ts::ui {

class DiffHeatmapPlot;
class DiffHistogramPlot;

// One pair of the comparison in detail: its verdict and metrics, the histograms of A's and B's
// values over one range and of B - A, and the heatmap of B - A (PairDetailBuilder, computed off
// the UI thread when the pair is shown), and on request the rank of B - A (LowRankEstimator).
// Both jobs run on JobRunners: showing another pair cancels them and drops what they deliver.
class PairDetailPanel final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kBins = 64;
    static constexpr int kMaxCells = 256;

    explicit PairDetailPanel(QWidget* parent = nullptr);
    ~PairDetailPanel() override;

    // The report is shared with the view; a rank estimate is written into its pair.
    void setReport(std::shared_ptr<diff::DiffReport> report);
    void showPair(int pair);
    int pair() const { return m_pair; }
    void estimateRank();

    bool isComputing() const { return m_detailJob.isRunning(); }
    bool isEstimatingRank() const { return m_rankJob.isRunning(); }
    QString metricsText() const;
    QString rankText() const;
    QPushButton* rankButton() const { return m_rankButton; }
    DiffHistogramPlot* valuesPlot() const { return m_values; }
    DiffHistogramPlot* diffPlot() const { return m_diff; }
    DiffHeatmapPlot* heatmap() const { return m_heatmap; }

signals:
    void detailReady();
    // The pair's rank and verdict changed in the report.
    void rankEstimated(int pair);
    void rankFinished();

private:
    void startDetail();
    void showMetrics();
    void showRank();
    void cancelJobs();
    void setHeatmapShown(bool shown);

    std::shared_ptr<diff::DiffReport> m_report;
    int m_pair = -1;
    JobRunner m_detailJob;
    JobRunner m_rankJob;
    QVBoxLayout* m_layout = nullptr;
    QLabel* m_title;
    QLabel* m_verdict;
    QLabel* m_metrics;
    QPushButton* m_rankButton;
    QLabel* m_rank;
    QLabel* m_status;
    DiffHistogramPlot* m_values;
    DiffHistogramPlot* m_diff;
    DiffHeatmapPlot* m_heatmap;
};

} // namespace ts::ui
