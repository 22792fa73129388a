#pragma once

#include "diff/CheckpointDiff.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;
class QTimer;

namespace ts::ui {

class CompareFilterProxy;
class CompareJob;
class CompareLayerChart;
class CompareTableModel;
class MetadataDiffModel;
class PairDetailPanel;

// A comparison of two checkpoints in a tab (File > Compare With...): the run with its progress
// and Cancel, a summary of what differs, then Changes (a sortable table of every pair, the most
// changed first, with the selected pair's metrics, histograms, heatmap and rank beside it), Layers
// (relative change against block index) and Metadata (the keys that differ).
class CompareView final : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    void start(const QString& a, const QString& b, diff::DiffOptions options = {});
    void cancel();
    bool isRunning() const;
    // Selects the row of the tensor of A with this name (or of B, for one only B has); false when
    // there is none.
    bool selectTensor(const QString& name);
    QString title() const;   // "a.safetensors \u2194 b.safetensors"
    QString toolTip() const; // both paths
    QString summaryText() const;
    QString statusText() const;

    std::shared_ptr<const diff::DiffReport> report() const { return m_report; }
    CompareTableModel* tableModel() const { return m_table; }
    CompareFilterProxy* proxy() const { return m_proxy; }
    QTableView* tableView() const { return m_view; }
    PairDetailPanel* detail() const { return m_detail; }
    CompareLayerChart* layerChart() const { return m_layers; }
    MetadataDiffModel* metadataModel() const { return m_metadata; }
    QTabWidget* pages() const { return m_pages; }
    QPushButton* cancelButton() const { return m_cancel; }
    QCheckBox* showIdenticalBox() const { return m_showIdentical; }

signals:
    // The comparison finished (ok) or failed or was cancelled.
    void finished(bool ok);

private:
    void onProgress(const diff::DiffProgress& progress);
    void onFinished(std::shared_ptr<diff::DiffReport> report);
    void onFailed(const Error& error);
    void setRunning(bool running);
    void selectRow(int sourceRow);

    QString m_a, m_b;
    std::shared_ptr<diff::DiffReport> m_report;
    CompareJob* m_job;
    QLabel* m_heading;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_cancel;
    QLabel* m_summary;
    QTabWidget* m_pages;
    QLineEdit* m_filter;
    QTimer* m_filterDelay;
    QCheckBox* m_showIdentical;
    CompareTableModel* m_table;
    CompareFilterProxy* m_proxy;
    QTableView* m_view;
    PairDetailPanel* m_detail;
    CompareLayerChart* m_layers;
    MetadataDiffModel* m_metadata;
};

} // namespace ts::ui
