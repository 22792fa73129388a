#pragma once

#include "base/Error.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "common/JobRunner.h"
#include "convert/ConvertOptions.h"
#include "convert/ConvertPlan.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace ts::ui {

class ConvertPreviewModel;
class ConvertPreviewProxy;

// What a conversion job (the report pass, or the write) ended with, as a plain value for the UI
// thread.
struct ConvertOutcome {
    std::optional<Error> error; // the core's; Cancelled when the engine stopped on Cancel
    ConvertPlan plan;           // the measured plan (preview)
    QStringList written;        // the files written (convert), the index last

    // A job that finished before Cancel reached it is not cancelled.
    bool cancelled() const { return error && error->code == ErrorCode::Cancelled; }
};

// File > Convert...: the options of `tensorscope-cli convert` for the current document, a
// preview of the result with the report pass's overflow / underflow / NaN counts, then the write
// with progress and Cancel. Both passes run through ts::Converter / ts::ConvertWriter as jobs of
// the dialog's JobRunner, which forwards their progress.
class ConvertDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ConvertDialog(std::shared_ptr<const Checkpoint> model, QWidget* parent = nullptr);
    ~ConvertDialog() override;

    // The options as typed, read by parseConvertOptions (convert/ConvertOptionsParser.h) as the
    // CLI reads its arguments; the error names the option that cannot be read.
    Result<ConvertOptions> options() const;
    QString outputPath() const;

    // Starts the report pass for the current options; false (and a message) when they are invalid
    // or a job is running. The Convert button is enabled only once a preview is shown for the
    // options now in the dialog, so nothing is written that the user has not seen the report of.
    bool startPreview();
    // Writes the previewed plan to outputPath(); false when there is no fresh preview or a job runs.
    bool startConvert();
    void cancel();
    bool isBusy() const;
    bool hasPreview() const { return m_previewFresh; }

    // What the preview shows. The fields, buttons, progress bar and status line are found by their
    // object names ("dtype", "dtypeFor", "include", "exclude", "rename", "setMetadata",
    // "unsetMetadata", "shardSize", "output", "preview", "convert", "cancel", "progress", "status",
    // "problemsOnly", "previewTable").
    ConvertPreviewModel* previewModel() const { return m_model; }
    // What the table shows: the preview sorted as the user clicked and filtered by Problems only.
    ConvertPreviewProxy* previewProxy() const { return m_proxy; }

signals:
    void previewFinished(bool ok);
    // `cancelled` is true when the user stopped the job; nothing was written then.
    void convertFinished(bool ok, bool cancelled, const QString& message);
    // A preview or a conversion failed (not cancelled): for the document's reload banner when its
    // input changed on disk (FileChanged).
    void failed(const ts::Error& error);

protected:
    void reject() override;

private:
    enum class Job { None, Preview, Convert };
    void optionsChanged();
    void browseOutput();
    template <typename Work> void startJob(Job job, Work work, const QString& what);
    void stopJob(); // cancels and waits
    void onJobFinished(const ConvertOutcome& outcome);
    void updateButtons();
    void updateProblemCount();
    void setStatus(const QString& text, bool error = false);

    std::shared_ptr<const Checkpoint> m_source;
    QComboBox* m_dtype;
    QLineEdit* m_include;
    QLineEdit* m_exclude;
    QPlainTextEdit* m_rename;
    QPlainTextEdit* m_dtypeFor;      // GLOB=DTYPE per line, as --dtype-for
    QPlainTextEdit* m_setMetadata;   // KEY=VALUE per line, as --set
    QPlainTextEdit* m_unsetMetadata; // KEY per line, as --unset
    QLineEdit* m_shardSize;
    QLineEdit* m_output;
    QPushButton* m_previewButton;
    QPushButton* m_convertButton;
    QPushButton* m_cancelButton;
    QPushButton* m_closeButton;
    ConvertPreviewModel* m_model;
    ConvertPreviewProxy* m_proxy;
    QCheckBox* m_problemsOnly;
    QTableView* m_table;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_summary;
    // Cancel asks the engine to stop (JobRunner::requestStop) rather than dropping the job: a
    // write that completed just before Cancel reached it must still be reported as written.
    JobRunner m_runner{this};
    Job m_job = Job::None;
    bool m_previewFresh = false;
    ConvertOptions m_previewOptions; // what the shown preview was made with
};

} // namespace ts::ui
