#pragma once

#include "analysis/ModelScanner.h"
#include "base/Diagnostic.h"
#include "checkpoint/Checkpoint.h"
#include "common/JobRunner.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ts::ui {

class LayerChartView;
class ScanTableModel;

// The whole-model scan page: runs ModelScanner off the UI thread with a throttled progress bar
// (bytes/s, ETA) and a Cancel button, then lists every tensor's statistics and findings in a
// sortable table and feeds the per-layer chart. The NaN/Inf check (ScanOptions::nanInfOnly) runs
// the same way at memory speed; its table has NaN/Inf counts only and no per-layer chart.
class ScanView final : public QWidget {
    Q_OBJECT
public:
    enum class Check { Full, NanInfOnly };

    explicit ScanView(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model);
    // The same tensors with the same bytes, reopened (a metadata save, a Reload of an unchanged
    // file): the results stay, now for `model`. republish() then tells the summary again.
    void keepResultsFor(std::shared_ptr<const Checkpoint> model);
    bool hasResults() const { return m_results.has_value(); }
    void republish();
    // Cancels a running scan or check first: a full scan asked for while the NaN/Inf check of an
    // open runs replaces it.
    void startScan(Check check = Check::Full);
    // The user's Cancel: the workers stop within one read and what they finished is shown (the
    // tensors done so far, their findings), marked as partial.
    void cancelScan();
    bool isRunning() const { return m_job.isRunning(); }
    QString statusText() const;

    // The last results for export: the table as shown (its sort order) as CSV, and the scan as
    // `tensorscope-cli scan --json` writes it. Empty before a scan.
    QByteArray resultsCsv() const;
    QByteArray resultsJson() const;

    // The findings. The widgets are found by object name: "results" (the table), "scan",
    // "checkNanInf", "cancel", "export" (and the one LayerChartView by its type).
    ScanTableModel* tableModel() const { return m_table; }

signals:
    void tensorActivated(const QString& name);
    // A scan or check started (one that was running is cancelled first).
    void scanStarted(ts::ui::ScanView::Check check);
    // The scan's findings, for the audit list.
    // `check` says which ran: the NaN/Inf check's findings are NanValues and InfValues only.
    void findingsReady(const std::vector<ts::Diagnostic>& findings, ts::ui::ScanView::Check check);
    // A cancelled scan's: those of the `scanned` tensors of `planned` it finished, none across
    // tensors.
    void partialFindingsReady(const std::vector<ts::Diagnostic>& findings, ts::ui::ScanView::Check check,
                              qsizetype scanned, qsizetype planned);
    // Finished, failed or cancelled.
    void scanFinished(bool ok);

private:
    void onProgress(const ScanProgress& progress);
    void onFinished(Result<ScanResult> result);
    void updateButtons();
    void clearResults();
    QString
    suggestedName(const QString& suffix) const; // "model.scan.csv" beside nothing: the dialog places it

    // What the table and the chart show, kept to tell the summary again after a reload.
    struct Shown {
        Check check = Check::Full;
        // Statistics and findings, shared with the table.
        std::shared_ptr<const ScanResult> result;
    };

    std::shared_ptr<const Checkpoint> m_model;
    // A scan asked for while one runs supersedes it; a cancelled one's result is dropped.
    JobRunner m_job{this};
    Check m_check = Check::Full; // of the running or last scan
    std::optional<Shown> m_results;
    QPushButton* m_start;
    QPushButton* m_nanInf;
    QPushButton* m_cancel;
    QPushButton* m_export;
    QProgressBar* m_progress;
    QLabel* m_status;
    ScanTableModel* m_table;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    LayerChartView* m_layers;
};

} // namespace ts::ui
