#pragma once

#include "common/JobRunner.h"
#include "document/LoadResult.h"
#include "scan/ScanView.h"

#include <QWidget>

#include <functional>
#include <optional>

class QFileSystemWatcher;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QUndoStack;

namespace ts::ui {

class ErrorView;
class JournalBanner;
class MetadataView;
class PickleBanner;
class RawHeaderView;
class StatsJob;
struct SaveOutcome;
class ReloadBanner;
class SummaryView;
class TensorBrowser;
class TensorVisualsPanel;

// One open model in its tab: loads it off the UI thread, shows the summary, tensors, metadata
// and raw header pages (or the error page), and watches the files for changes.
class DocumentWidget final : public QWidget {
    Q_OBJECT
public:
    enum class State { Loading, Loaded, Failed };
    enum Page { SummaryPage, TensorsPage, MetadataPage, HeaderPage, ScanPage };

    explicit DocumentWidget(const QString& path, QWidget* parent = nullptr);
    ~DocumentWidget() override;

    const QString& path() const { return m_path; }
    QString displayName() const;
    State state() const { return m_state; }
    const LoadResult& result() const { return m_result; }

    // Starts (or restarts) loading; a result of an earlier load that arrives late is dropped.
    void reload();
    // What the Reload action and button call: with unsaved metadata edits it first asks whether
    // to discard them (a reload shows the file as it is on disk), and does nothing on No.
    void requestReload();
    using ConfirmDiscard = std::function<bool(QWidget* parent, const QString& name)>;
    void setDiscardPrompt(ConfirmDiscard ask) { m_confirmDiscard = std::move(ask); }
    // Asked before saving over a read-only or hard-linked file; true replaces it.
    using ConfirmForce = std::function<bool(QWidget* parent, const QString& question)>;
    void setForcePrompt(ConfirmForce ask) { m_confirmForce = std::move(ask); }
    void showPage(Page page);
    Page currentPage() const;
    // Focuses the search box of the current page (the tensor filter, or the raw header search).
    void focusSearch();
    bool selectTensor(const QString& name);
    // Selects `name` and shows its values at the element that starts at byte `fileOffset` of its
    // file (an audit finding's offset); the tensor alone when the offset is not inside it.
    bool selectTensorAt(const QString& name, quint64 fileOffset);
    // Checks the files now (the watcher and a slow poll do it on their own).
    void checkForChanges();
    bool isReloadPromptVisible() const;
    // A URL (read from a server): nothing to watch or save, values not checked on open.
    bool isRemote() const;
    // Stops a load that waits for a server; its result says it was cancelled.
    void cancelLoading();
    QPushButton* cancelLoadingButton() const { return m_loadCancel; }
    QLabel* loadingDetail() const { return m_loadingDetail; }
    // Something done with this document's files failed (a tensor read, an export, a conversion):
    // a FileChanged error raises the reload banner, saying what failed. Other errors are shown by
    // the widget that met them.
    void reportError(const Error& error);

    SummaryView* summaryView() const { return m_summary; }
    TensorBrowser* tensorBrowser() const { return m_browser; }
    MetadataView* metadataView() const { return m_metadata; }
    RawHeaderView* rawHeaderView() const { return m_rawHeader; }
    ErrorView* errorView() const { return m_error; }
    ReloadBanner* reloadBanner() const { return m_banner; }
    JournalBanner* journalBanner() const { return m_journalBanner; }
    PickleBanner* pickleBanner() const { return m_pickleBanner; }
    // Deletes the hidden temporaries that killed saves of this model's files left (the audit
    // list's Remove action), then reloads. Returns how many went.
    int removeLeftovers();
    ScanView* scanView() const { return m_scan; }
    // Shows the Scan page and starts a whole-model scan, or the NaN/Inf check alone (its findings
    // join the audit list).
    void startScan(ScanView::Check check = ScanView::Check::Full);

    // Metadata editing (DocumentWidgetSave.cpp). Single files only: the shards of a model each
    // carry their own copy of the map, and editing one of them would make them disagree.
    QUndoStack* undoStack() const { return m_undo; }
    bool isEditable() const;
    bool isModified() const;
    bool isSaving() const { return m_save.isRunning(); }
    // Starts saving the edited metadata to `target` (empty: the open file) off the UI thread;
    // false when there is nothing to save or a save is running. On success the document shows
    // the saved file (a Save As moves the tab to the new path).
    bool save(const QString& target = {});

signals:
    // Emitted when a load finished, successfully or not.
    void loaded();
    // The error page's Access Token button: a server refused the model without a valid token.
    void accessTokenRequested();
    // The error page of a folder holding several models: the one the user picked, to open.
    void openRequested(const QString& location);
    void stateChanged();
    // The user (or showPage()) switched between the summary, tensors, ... pages.
    void pageChanged(ts::ui::DocumentWidget::Page page);
    void modifiedChanged(bool modified);
    void saveFinished(bool ok, const QString& message);

private:
    void apply(LoadResult result);
    void watchFiles();
    void onSaved(const SaveOutcome& outcome);
    void showJournals();
    void restoreJournal(const JournalInspection& journal);
    void deleteJournal(const JournalInspection& journal);
    std::optional<bool> askForce(const QString& target);

    QString m_path;
    State m_state = State::Loading;
    TensorVisualsPanel* m_visuals = nullptr;
    bool m_reloadAfterSave = false; // the next apply() follows our own metadata save
    LoadResult m_result;
    JobRunner m_load{this};
    JobRunner m_save{this};
    JobRunner m_restore{this}; // a journal's restore, which waits for the file's save lock
    QFileSystemWatcher* m_fsWatcher;
    QTimer* m_poll;
    ReloadBanner* m_banner;
    ConfirmDiscard m_confirmDiscard;
    ConfirmForce m_confirmForce;
    JournalBanner* m_journalBanner;
    PickleBanner* m_pickleBanner;
    QStackedWidget* m_stack;
    QWidget* m_loadingPage;
    QLabel* m_loadingDetail;
    QPushButton* m_loadCancel;
    ErrorView* m_error;
    QTabWidget* m_pages;
    SummaryView* m_summary;
    TensorBrowser* m_browser;
    MetadataView* m_metadata;
    RawHeaderView* m_rawHeader;
    ScanView* m_scan = nullptr;
    StatsJob* m_stats = nullptr;
    QUndoStack* m_undo;
};

} // namespace ts::ui
