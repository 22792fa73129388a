#pragma once

#include "architecture/ModelProfile.h"
#include "checkpoint/Checkpoint.h"
#include "common/JobRunner.h"

#include <QDialog>
#include <QStringList>

#include <functional>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ts::ui {

// What an export ended with, as a plain value for the UI thread.
struct ReportOutcome {
    bool ok = false;
    bool cancelled = false;
    QString error;
    QStringList written; // the files written, the main one first
    int errors = 0;      // error findings in the report
};

// File > Export Report...: where to write the audit report (HTML, JSON or Markdown by the
// extension, with the other two beside it on request), whether to hash the files and scan the
// values, then the export as a JobRunner job (ts::ReportBuilder: hashing, then the scan) with
// the phase, a progress bar and Cancel. Nothing is written until the report is complete, and
// never over one of the model's own files.
class ReportExportDialog final : public QDialog {
    Q_OBJECT
public:
    ReportExportDialog(std::shared_ptr<const Checkpoint> model, QString opened,
                       std::shared_ptr<const ModelProfile> profile, QWidget* parent = nullptr);
    ~ReportExportDialog() override;

    QLineEdit* pathEdit() const { return m_path; }
    QCheckBox* jsonBox() const { return m_json; }
    QCheckBox* markdownBox() const { return m_markdown; }
    QCheckBox* hashBox() const { return m_hash; }
    QCheckBox* scanBox() const { return m_scan; }
    QPushButton* exportButton() const { return m_export; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QString statusText() const;
    bool isRunning() const { return m_running; }
    const ReportOutcome& outcome() const { return m_outcome; }

    // Asked before an existing file is replaced; true replaces it. Tests replace the dialog.
    using ConfirmReplace = std::function<bool(QWidget* parent, const QStringList& existing)>;
    void setReplacePrompt(ConfirmReplace ask) { m_confirmReplace = std::move(ask); }

    // What Export does: false (and a message) when the path is not a report's or a job runs.
    bool startExport();
    void cancel();

signals:
    void exportFinished(bool ok);

private:
    void browse();
    void onFinished(ReportOutcome outcome);
    void setRunning(bool running);
    void setStatus(const QString& text, bool error = false);

    std::shared_ptr<const Checkpoint> m_model;
    QString m_opened;
    std::shared_ptr<const ModelProfile> m_profile;
    ReportOutcome m_outcome;
    bool m_running = false;
    ConfirmReplace m_confirmReplace;
    QLineEdit* m_path;
    QCheckBox* m_json;
    QCheckBox* m_markdown;
    QCheckBox* m_hash;
    QCheckBox* m_scan;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_export;
    QPushButton* m_cancel;
    QPushButton* m_open;
    QPushButton* m_close;
    JobRunner m_runner{this};
};

} // namespace ts::ui
