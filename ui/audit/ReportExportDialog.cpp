#include "audit/ReportExportDialog.h"

#include "base/Format.h"
#include "common/CountText.h"
#include "report/ReportBuilder.h"
#include "report/ReportOutput.h"
#include "write/InputFiles.h"

#include <QApplication>
#include <QCheckBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QUrl>
#include <QVBoxLayout>

#include <atomic>

namespace ts::ui {
namespace {

// Progress is reported per mille of the current phase; the phase's name is the progress text.
constexpr int kProgressScale = 1000;

bool askReplace(QWidget* parent, const QStringList& existing)
{
    return QMessageBox::question(parent, ReportExportDialog::tr("Replace Files"),
                                 ReportExportDialog::tr("%1 already exists. Replace it?")
                                     .arg(existing.join(QStringLiteral(", "))),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

} // namespace

ReportExportDialog::ReportExportDialog(std::shared_ptr<const Checkpoint> model, QString opened,
                                       std::shared_ptr<const ModelProfile> profile, QWidget* parent)
    : QDialog(parent), m_model(std::move(model)), m_opened(std::move(opened)), m_profile(std::move(profile)),
      m_confirmReplace(&askReplace), m_path(new QLineEdit(this)),
      m_json(new QCheckBox(tr("Also write the JSON report beside it"), this)),
      m_markdown(new QCheckBox(tr("Also write the Markdown report beside it"), this)),
      m_hash(new QCheckBox(tr("SHA-256 of every file (reads them all)"), this)),
      m_scan(new QCheckBox(
          tr("Scan the values: NaN, Inf, outliers, per-layer statistics (reads every tensor)"), this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)),
      m_export(new QPushButton(tr("Export"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_open(new QPushButton(tr("Open Report"), this)), m_close(new QPushButton(tr("Close"), this))
{
    setWindowTitle(tr("Export Report"));
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString base = QFileInfo(m_model->displayName()).completeBaseName();
    m_path->setText(
        QDir(documents.isEmpty() ? QDir::homePath() : documents)
            .filePath((base.isEmpty() ? QStringLiteral("model") : base) + QStringLiteral("-audit.html")));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    m_hash->setChecked(true);
    m_scan->setChecked(true);
    m_json->setChecked(false);
    m_markdown->setChecked(false);

    auto* form = new QFormLayout;
    form->addRow(tr("Report:"), pathRow);
    form->addRow(QString(), m_json);
    form->addRow(QString(), m_markdown);
    form->addRow(tr("Include:"), m_hash);
    form->addRow(QString(), m_scan);
    m_progress->setRange(0, kProgressScale);
    m_progress->hide();
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(
        tr("A self-contained HTML file (charts inline, nothing fetched when it is opened), or JSON or "
           "Markdown: the extension decides."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_export);
    buttons->addWidget(m_close);
    m_open->hide();
    m_cancel->hide();
    m_export->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    resize(640, sizeHint().height());

    connect(browse, &QPushButton::clicked, this, &ReportExportDialog::browse);
    connect(m_export, &QPushButton::clicked, this, &ReportExportDialog::startExport);
    connect(m_cancel, &QPushButton::clicked, this, &ReportExportDialog::cancel);
    connect(m_close, &QPushButton::clicked, this, &QDialog::close);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (!m_outcome.written.isEmpty())
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_outcome.written.front()));
    });
}

ReportExportDialog::~ReportExportDialog()
{
    // A report must not go on being written with nobody to tell: the job is cancelled and its
    // result dropped; it stops within one chunk and owns everything it reads.
    m_runner.cancel();
}

QString ReportExportDialog::statusText() const
{
    return m_status->text();
}

void ReportExportDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828") : QString());
}

void ReportExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export Report"), m_path->text(),
        tr("HTML report (*.html *.htm);;JSON report (*.json);;Markdown report (*.md)"));
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

void ReportExportDialog::setRunning(bool running)
{
    m_running = running;
    m_export->setEnabled(!running);
    m_path->setEnabled(!running);
    m_json->setEnabled(!running);
    m_markdown->setEnabled(!running);
    m_hash->setEnabled(!running);
    m_scan->setEnabled(!running);
    m_cancel->setVisible(running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running)
        m_open->hide();
}

bool ReportExportDialog::startExport()
{
    if (m_running)
        return false;
    const QString target = m_path->text().trimmed();
    const std::optional<ReportFormat> format = ReportOutput::formatFor(target);
    if (target.isEmpty() || !format) {
        setStatus(tr("The report's name must end in .html, .json or .md."), true);
        return false;
    }
    std::vector<std::pair<QString, ReportFormat>> outputs = {{QFileInfo(target).absoluteFilePath(), *format}};
    if (m_json->isChecked() && *format != ReportFormat::Json)
        outputs.emplace_back(ReportOutput::sibling(outputs.front().first, ReportFormat::Json),
                             ReportFormat::Json);
    if (m_markdown->isChecked() && *format != ReportFormat::Markdown)
        outputs.emplace_back(ReportOutput::sibling(outputs.front().first, ReportFormat::Markdown),
                             ReportFormat::Markdown);

    QStringList protectedFiles = m_model->files();
    if (m_profile && m_profile->config.found())
        protectedFiles << m_profile->config.path;
    const InputFiles inputs(protectedFiles);
    QStringList existing;
    for (const auto& [file, kind] : outputs) {
        (void)kind;
        if (auto refused = inputs.refuseOverwrite(file, tr("choose another name for the report")); !refused) {
            setStatus(refused.error().toString(), true);
            return false;
        }
        if (QFileInfo::exists(file))
            existing << QFileInfo(file).fileName();
    }
    if (!existing.isEmpty() && !m_confirmReplace(this, existing))
        return false;

    ReportOptions options;
    options.hash = m_hash->isChecked();
    options.scan = m_scan->isChecked();
    options.tool = QStringLiteral("Tensorscope ") + QApplication::applicationVersion();
    m_outcome = {};
    setRunning(true);
    m_progress->setValue(0);
    setStatus(tr("Preparing the report\u2026"));
    // The phase is written on the job's thread before that phase's bytes are reported, and read
    // by the progress handler on the UI thread.
    auto phase = std::make_shared<std::atomic<ReportPhase>>(ReportPhase::Hashing);
    m_runner.start(
        [model = m_model, opened = m_opened, profile = m_profile, options, outputs, inputs,
         phase](const JobControl& control) {
            ReportBuilder builder(model, opened, options);
            if (profile)
                builder.setProfile(*profile);
            builder.setControl(control);
            builder.setPhaseListener([phase](ReportPhase p) { phase->store(p); });
            ReportOutcome outcome;
            auto report = builder.run();
            if (!report) {
                outcome.cancelled = report.error().code == ErrorCode::Cancelled;
                outcome.error = report.error().toString();
                return outcome;
            }
            for (const auto& [file, kind] : outputs) {
                // Replacing was agreed to above; InputFiles is asked again just before writing.
                if (auto written =
                        ReportOutput::write(file, ReportOutput::render(*report, kind), inputs, true);
                    !written) {
                    outcome.error = written.error().toString();
                    return outcome;
                }
                outcome.written << file;
            }
            outcome.ok = true;
            outcome.errors = report->errorCount();
            return outcome;
        },
        [this](ReportOutcome outcome) { onFinished(std::move(outcome)); },
        [this, phase](const Progress& p) {
            m_progress->setValue(p.bytesTotal > 0
                                     ? static_cast<int>(static_cast<double>(p.bytesDone) * kProgressScale /
                                                        static_cast<double>(p.bytesTotal))
                                     : 0);
            const QString what =
                phase->load() == ReportPhase::Hashing ? tr("Hashing files") : tr("Scanning tensors");
            setStatus(tr("%1: %2 of %3 (%4/s)")
                          .arg(what, formatBytes(p.bytesDone), formatBytes(p.bytesTotal),
                               formatBytes(static_cast<std::uint64_t>(p.bytesPerSecond))));
        });
    return true;
}

void ReportExportDialog::cancel()
{
    if (!m_running)
        return;
    // The outcome still comes (a Cancelled error, or the report if it was finished first).
    m_runner.requestStop();
    m_cancel->setEnabled(false);
    setStatus(tr("Cancelling\u2026"));
}

void ReportExportDialog::onFinished(ReportOutcome outcome)
{
    m_outcome = std::move(outcome);
    setRunning(false);
    if (m_outcome.ok) {
        QStringList names;
        std::uint64_t bytes = 0;
        for (const QString& f : m_outcome.written) {
            names << QFileInfo(f).fileName();
            bytes += static_cast<std::uint64_t>(QFileInfo(f).size());
        }
        setStatus(tr("Wrote %1 (%2) in %3. %4")
                      .arg(names.join(QStringLiteral(", ")), formatBytes(bytes),
                           QDir::toNativeSeparators(QFileInfo(m_outcome.written.front()).absolutePath()),
                           m_outcome.errors
                               ? tr("The report lists %1.").arg(CountText::errors(m_outcome.errors))
                               : tr("The report lists no error.")));
        m_open->setVisible(ReportOutput::formatFor(m_outcome.written.front()) == ReportFormat::Html);
    } else if (m_outcome.cancelled) {
        setStatus(tr("Cancelled: nothing was written."));
    } else {
        setStatus(m_outcome.error.isEmpty() ? tr("The export failed.") : m_outcome.error, true);
    }
    emit exportFinished(m_outcome.ok);
}

} // namespace ts::ui
