#include "conversion/ConvertDialog.h"

#include "base/Format.h"
#include "common/CountText.h"
#include "conversion/ConvertPreviewModel.h"
#include "conversion/ConvertPreviewProxy.h"
#include "convert/ConvertOptionsParser.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "convert/DtypeConverter.h"
#include "io/RemoteLocation.h"
#include "window/Preferences.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ts::ui {
namespace {

// Per mille is fine enough for a bar and cannot overflow an int whatever the byte counts are.
constexpr int kProgressScale = 1000;

QStringList splitGlobs(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

// The trimmed, non-empty lines of a multi-line field.
QStringList nonEmptyLines(const QString& text)
{
    QStringList lines;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        if (const QString line = raw.trimmed(); !line.isEmpty())
            lines << line;
    }
    return lines;
}

QString defaultOutput(const Checkpoint& model)
{
    if (RemoteLocation::isRemote(model.path())) // a local copy of a model on a server goes home
        return QDir::home().filePath(QFileInfo(RemoteLocation::fileName(model.path())).completeBaseName() +
                                     QStringLiteral("-converted.safetensors"));
    const QFileInfo info(model.path());
    const QString base = info.isDir() ? info.fileName() : info.completeBaseName();
    return info.absolutePath() + QLatin1Char('/') + base + QStringLiteral("-converted.safetensors");
}

} // namespace

ConvertDialog::ConvertDialog(std::shared_ptr<const Checkpoint> model, QWidget* parent)
    : QDialog(parent), m_source(std::move(model)), m_dtype(new QComboBox(this)),
      m_include(new QLineEdit(this)), m_exclude(new QLineEdit(this)), m_rename(new QPlainTextEdit(this)),
      m_dtypeFor(new QPlainTextEdit(this)), m_setMetadata(new QPlainTextEdit(this)),
      m_unsetMetadata(new QPlainTextEdit(this)), m_shardSize(new QLineEdit(this)),
      m_output(new QLineEdit(this)), m_previewButton(new QPushButton(tr("&Preview"), this)),
      m_convertButton(new QPushButton(tr("&Convert"), this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)), m_closeButton(new QPushButton(tr("Close"), this)),
      m_model(new ConvertPreviewModel(this)), m_proxy(new ConvertPreviewProxy(this)),
      m_problemsOnly(new QCheckBox(tr("Problems only"), this)), m_table(new QTableView(this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_summary(new QLabel(this))
{
    setWindowTitle(tr("Convert %1").arg(m_source->displayName()));
    // The names tests find the parts by (QObject::findChild), as a user finds them by their labels.
    const std::pair<QObject*, const char*> named[] = {{m_dtype, "dtype"},
                                                      {m_dtypeFor, "dtypeFor"},
                                                      {m_include, "include"},
                                                      {m_exclude, "exclude"},
                                                      {m_rename, "rename"},
                                                      {m_setMetadata, "setMetadata"},
                                                      {m_unsetMetadata, "unsetMetadata"},
                                                      {m_shardSize, "shardSize"},
                                                      {m_output, "output"},
                                                      {m_previewButton, "preview"},
                                                      {m_convertButton, "convert"},
                                                      {m_cancelButton, "cancel"},
                                                      {m_progress, "progress"},
                                                      {m_status, "status"},
                                                      {m_problemsOnly, "problemsOnly"},
                                                      {m_table, "previewTable"}};
    for (const auto& [object, name] : named)
        object->setObjectName(QLatin1String(name));
    resize(900, 700);

    m_dtype->addItem(tr("Keep"), QString());
    for (const Dtype d : DtypeConverter::targets())
        m_dtype->addItem(dtypeName(d), dtypeName(d));
    m_include->setPlaceholderText(tr("globs, e.g. model.layers.*  (empty: every tensor)"));
    m_exclude->setPlaceholderText(tr("globs, e.g. *.bias lm_head.*"));
    m_rename->setPlaceholderText(tr("one REGEX=REPLACEMENT per line, applied in order, e.g. ^model\\.="));
    m_dtypeFor->setPlaceholderText(
        tr("one GLOB=DTYPE per line, the last match wins, e.g. *norm*=F32 (overrides the dtype above)"));
    m_setMetadata->setPlaceholderText(tr("one KEY=VALUE per line, e.g. format=pt"));
    m_unsetMetadata->setPlaceholderText(tr("one key per line"));
    for (QPlainTextEdit* edit : {m_rename, m_dtypeFor, m_setMetadata, m_unsetMetadata}) {
        // Two lines show; more scroll. The preview table below is what the dialog is for.
        edit->setMaximumHeight(edit->fontMetrics().lineSpacing() * 2 + 12);
        edit->setTabChangesFocus(true);
    }
    m_shardSize->setPlaceholderText(tr("none: one file; e.g. 2GB or 500MB for Hugging Face shards"));
    m_output->setText(defaultOutput(*m_source));
    auto* browse = new QToolButton(this);
    browse->setText(tr("\u2026"));
    connect(browse, &QToolButton::clicked, this, &ConvertDialog::browseOutput);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("Floating tensors to:"), m_dtype);
    form->addRow(tr("Per-tensor dtype:"), m_dtypeFor);
    form->addRow(tr("Include:"), m_include);
    form->addRow(tr("Exclude:"), m_exclude);
    form->addRow(tr("Rename:"), m_rename);
    auto* metadataRow = new QHBoxLayout;
    metadataRow->addWidget(m_setMetadata, 3);
    metadataRow->addWidget(new QLabel(tr("Remove:"), this));
    metadataRow->addWidget(m_unsetMetadata, 2);
    form->addRow(tr("Set metadata:"), metadataRow);
    form->addRow(tr("Shard size:"), m_shardSize);
    form->addRow(tr("Output:"), outputRow);

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ConvertPreviewModel::NameColumn, Qt::AscendingOrder);
    // Names differ in their middle (the layer number), so that is what an elided one keeps; the
    // tooltip has it whole.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    // Names are what a user scans for; the numeric columns need little room and the note takes
    // what is left. No ResizeToContents: it measures every row, and models have thousands.
    m_table->horizontalHeader()->setDefaultSectionSize(72);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(ConvertPreviewModel::NameColumn, 240);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Preview to see the result and what the conversion does to the values."));
    m_problemsOnly->setToolTip(tr("Show only tensors with overflow, underflow to zero, NaN or Inf in the "
                                  "source, or a dtype kept against the request."));
    connect(m_problemsOnly, &QCheckBox::toggled, m_proxy, &ConvertPreviewProxy::setProblemsOnly);
    updateProblemCount();

    m_progress->setRange(0, kProgressScale);
    m_progress->hide();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_previewButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_convertButton, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_cancelButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_closeButton, QDialogButtonBox::RejectRole);
    // Enter in a field previews; converting is never one keypress away from typing.
    m_previewButton->setDefault(true);
    m_convertButton->setAutoDefault(false);
    connect(m_previewButton, &QPushButton::clicked, this, &ConvertDialog::startPreview);
    connect(m_convertButton, &QPushButton::clicked, this, &ConvertDialog::startConvert);
    connect(m_cancelButton, &QPushButton::clicked, this, &ConvertDialog::cancel);
    connect(m_closeButton, &QPushButton::clicked, this, &ConvertDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problemsOnly);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    // A preview describes the options it was made with; any change to what the plan depends on
    // makes it stale, and a stale preview must not be written. Shard size and output only matter
    // to the write and are read when it starts.
    connect(m_dtype, &QComboBox::currentIndexChanged, this, &ConvertDialog::optionsChanged);
    connect(m_include, &QLineEdit::textChanged, this, &ConvertDialog::optionsChanged);
    connect(m_exclude, &QLineEdit::textChanged, this, &ConvertDialog::optionsChanged);
    for (QPlainTextEdit* edit : {m_rename, m_dtypeFor, m_setMetadata, m_unsetMetadata})
        connect(edit, &QPlainTextEdit::textChanged, this, &ConvertDialog::optionsChanged);
    updateButtons();
}

ConvertDialog::~ConvertDialog()
{
    // The job holds the model and the plan, but a write must not go on with nobody to report to;
    // its result is dropped with the dialog.
    stopJob();
}

Result<ConvertOptions> ConvertDialog::options() const
{
    // Each line of a field is one value, as each argument is on the command line, and the core's
    // parser reads them by the CLI's rules. A line's surrounding spaces cannot be seen, so they
    // go; metadata lines are passed whole, because a value may start or end with a space (the
    // parser trims the key only).
    ConvertOptionTexts texts;
    if (const QString dtype = m_dtype->currentData().toString(); !dtype.isEmpty())
        texts.dtype = dtype;
    texts.dtypeFor = nonEmptyLines(m_dtypeFor->toPlainText());
    texts.include = splitGlobs(m_include->text());
    texts.exclude = splitGlobs(m_exclude->text());
    texts.rename = nonEmptyLines(m_rename->toPlainText());
    for (const QString& line : m_setMetadata->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            texts.set << line;
    }
    texts.unset = nonEmptyLines(m_unsetMetadata->toPlainText());
    if (const QString shard = m_shardSize->text().trimmed(); !shard.isEmpty())
        texts.shardSize = shard;
    Result<ConvertOptions> options = parseConvertOptions(texts);
    // The same preference as Save: whoever asked for slack wants it in every file the window writes.
    if (options)
        options->headerSlack = Preferences::headerSlack();
    return options;
}

QString ConvertDialog::outputPath() const
{
    return m_output->text().trimmed();
}

bool ConvertDialog::isBusy() const
{
    return m_job != Job::None;
}

bool ConvertDialog::startPreview()
{
    if (isBusy())
        return false;
    const Result<ConvertOptions> opts = options();
    if (!opts) {
        setStatus(opts.error().message, true);
        return false;
    }
    m_model->clear();
    updateProblemCount();
    m_previewFresh = false;
    m_previewOptions = *opts;
    startJob(
        Job::Preview,
        [model = m_source, opts = *opts](const JobControl& control) {
            ConvertOutcome outcome;
            auto plan = Converter::plan({model}, opts);
            if (!plan) {
                outcome.error = plan.error();
                return outcome;
            }
            if (auto measured = Converter::measure(plan.value(), control); !measured) {
                outcome.error = measured.error();
                return outcome;
            }
            outcome.plan = std::move(plan.value());
            return outcome;
        },
        tr("Checking values\u2026"));
    return true;
}

bool ConvertDialog::startConvert()
{
    if (isBusy() || !m_previewFresh)
        return false;
    const Result<ConvertOptions> opts = options();
    if (!opts) {
        setStatus(opts.error().message, true);
        return false;
    }
    const QString out = outputPath();
    if (out.isEmpty()) {
        setStatus(tr("Choose an output file."), true);
        return false;
    }
    if (!opts->shardSize && QFileInfo(out).isFile() && isVisible()) {
        const auto answer =
            QMessageBox::question(this, tr("Replace File"), tr("%1 exists. Replace it?").arg(out),
                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes)
            return false;
    }
    // The plan shown is the plan written; only the write-side options are taken from the fields now.
    ConvertOptions writeOptions = m_previewOptions;
    writeOptions.shardSize = opts->shardSize;
    writeOptions.headerSlack = opts->headerSlack;
    startJob(
        Job::Convert,
        [plan = m_model->plan(), out, writeOptions](const JobControl& control) {
            ConvertOutcome outcome;
            auto files = ConvertWriter::write(plan, out, writeOptions, control);
            if (files)
                outcome.written = files.value();
            else
                outcome.error = files.error();
            return outcome;
        },
        tr("Writing %1\u2026").arg(out));
    return true;
}

void ConvertDialog::cancel()
{
    // The engine stops (and removes its temporary file) when told to; its outcome still comes.
    if (isBusy())
        m_runner.requestStop();
}

void ConvertDialog::stopJob()
{
    // The engine polls the token between chunks, so this waits a few milliseconds; its atomic
    // save then has removed the temporary file.
    cancel();
    m_runner.waitForFinished();
}

void ConvertDialog::reject()
{
    // Closing stops the job rather than leaving a write running behind a closed dialog; its
    // finished signal still arrives and resets the buttons.
    stopJob();
    QDialog::reject();
}

template <typename Work> void ConvertDialog::startJob(Job job, Work work, const QString& what)
{
    m_job = job;
    m_progress->setValue(0);
    m_progress->show();
    setStatus(what);
    updateButtons();
    m_runner.start(
        std::move(work), [this](const ConvertOutcome& outcome) { onJobFinished(outcome); },
        [this](const Progress& p) {
            m_progress->setValue(p.bytesTotal ? static_cast<int>(p.bytesDone * kProgressScale / p.bytesTotal)
                                              : kProgressScale);
        });
}

void ConvertDialog::onJobFinished(const ConvertOutcome& outcome)
{
    const Job job = std::exchange(m_job, Job::None);
    m_progress->hide();
    const bool cancelled = outcome.cancelled();
    if (outcome.error && !cancelled)
        emit failed(*outcome.error);
    if (job == Job::Preview) {
        if (cancelled) {
            setStatus(tr("Preview cancelled."));
        } else if (outcome.error) {
            setStatus(outcome.error->toString(), true);
        } else {
            m_model->setPlan(outcome.plan);
            updateProblemCount();
            m_previewFresh = true;
            const ConvertPlan& plan = m_model->plan();
            const ConversionCounts total = plan.totalCounts();
            m_summary->setText(
                tr("%1, %2 \u2192 %3; %4 overflowed, %5 underflowed to zero, %6 NaN and %7 Inf in "
                   "the source.")
                    .arg(CountText::tensors(plan.tensors.size()))
                    .arg(formatBytes(plan.bytesBefore()), formatBytes(plan.bytesAfter()),
                         formatGrouped(total.overflowed), formatGrouped(total.underflowed),
                         formatGrouped(total.nan), formatGrouped(total.inf)));
            setStatus(total.overflowed > 0
                          ? tr("Warning: %1 out of range of their new dtype and become Inf "
                               "(or \u00b1"
                               "448 in F8_E4M3).")
                                .arg(total.overflowed == 1
                                         ? tr("1 value is")
                                         : tr("%1 values are").arg(formatGrouped(total.overflowed)))
                          : QString(),
                      total.overflowed > 0);
        }
        updateButtons();
        emit previewFinished(!outcome.error);
        return;
    }
    QString message;
    if (cancelled)
        message = tr("Conversion cancelled; nothing was written to %1.").arg(outputPath());
    else if (outcome.error)
        message = outcome.error->toString();
    else
        message = outcome.written.size() == 1
                      ? tr("Wrote %1.").arg(outcome.written.constFirst())
                      : tr("Wrote %1 files to %2.").arg(outcome.written.size()).arg(outputPath());
    setStatus(message, outcome.error && !cancelled);
    updateButtons();
    emit convertFinished(!outcome.error, cancelled, message);
}

void ConvertDialog::optionsChanged()
{
    if (!m_previewFresh && m_model->rowCount() == 0)
        return;
    m_previewFresh = false;
    m_model->clear();
    updateProblemCount();
    m_summary->setText(tr("The options changed: preview again before converting."));
    updateButtons();
}

void ConvertDialog::browseOutput()
{
    const Result<ConvertOptions> opts = options();
    const QString path =
        opts && opts->shardSize
            ? QFileDialog::getExistingDirectory(this, tr("Folder for the Shards"), outputPath())
            : QFileDialog::getSaveFileName(this, tr("Convert To"), outputPath(),
                                           tr("Safetensors (*.safetensors)"));
    if (!path.isEmpty())
        m_output->setText(path);
}

void ConvertDialog::updateButtons()
{
    const bool busy = isBusy();
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_dtype, m_include, m_exclude, m_rename, m_shardSize, m_output})
        w->setEnabled(!busy);
    m_previewButton->setEnabled(!busy);
    m_convertButton->setEnabled(!busy && m_previewFresh);
    m_cancelButton->setEnabled(busy);
}

void ConvertDialog::updateProblemCount()
{
    const auto& tensors = m_model->plan().tensors;
    const auto problems =
        std::count_if(tensors.begin(), tensors.end(), [](const PlannedTensor& t) { return t.hasProblem(); });
    m_problemsOnly->setText(tensors.empty() ? tr("Problems only")
                                            : tr("Problems only (%1 of %2 tensors)")
                                                  .arg(formatGrouped(static_cast<std::uint64_t>(problems)),
                                                       formatGrouped(tensors.size())));
}

void ConvertDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c02020;") : QString());
}

} // namespace ts::ui
