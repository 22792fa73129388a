#include "summary/SummaryView.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "charts/DtypeChart.h"
#include "checkpoint/CheckpointJson.h"
#include "common/NaturalSortProxy.h"
#include "common/TableExport.h"
#include "summary/ArchitecturePanel.h"
#include "summary/AuditModel.h"
#include "summary/ModuleShareModel.h"
#include "summary/ValuesVerdict.h"

#include <QAbstractProxyModel>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::ui {
namespace {

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    label->setFont(f);
    return label;
}

} // namespace

SummaryView::SummaryView(QWidget* parent)
    : QScrollArea(parent), m_title(new QLabel), m_path(new QLabel), m_values(new ValuesVerdict),
      m_architecture(new ArchitecturePanel), m_chart(new DtypeChart), m_modules(new ModuleShareModel(this)),
      m_moduleView(new QTableView), m_audit(new AuditModel(this)), m_auditView(new QTreeView),
      m_auditTitle(nullptr), m_auditEmpty(new QLabel),
      m_removeLeftovers(new QPushButton(tr("Remove Leftover Files"))),
      m_exportAudit(new QPushButton(tr("Export"))), m_grid(new QGridLayout)
{
    m_auditView->setObjectName(QStringLiteral("audit"));
    m_removeLeftovers->setObjectName(QStringLiteral("removeLeftovers"));
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setSpacing(10);

    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_title);
    layout->addWidget(m_path);
    layout->addWidget(m_values);

    m_grid->setHorizontalSpacing(24);
    m_grid->setVerticalSpacing(4);
    // Every element of every tensor; the parameters as the Hub counts them are the architecture's line.
    addFact(QStringLiteral("parameters"), tr("Elements"), 0, 0);
    addFact(QStringLiteral("tensors"), tr("Tensors"), 0, 1);
    addFact(QStringLiteral("fileSize"), tr("File size"), 0, 2);
    addFact(QStringLiteral("tensorBytes"), tr("Tensor data"), 0, 3);
    addFact(QStringLiteral("headerBytes"), tr("Header"), 2, 0);
    addFact(QStringLiteral("shards"), tr("Shards"), 2, 1);
    addFact(QStringLiteral("metadataKeys"), tr("Metadata keys"), 2, 2);
    addFact(QStringLiteral("dtypes"), tr("Dtypes"), 2, 3);
    m_grid->setColumnStretch(4, 1);
    layout->addLayout(m_grid);
    layout->addWidget(m_architecture);

    auto* charts = new QGridLayout;
    charts->addWidget(sectionTitle(tr("Parameters and bytes per dtype"), page), 0, 0);
    charts->addWidget(sectionTitle(tr("Top-level modules by parameter share"), page), 0, 1);
    charts->addWidget(m_chart, 1, 0);
    charts->addWidget(m_moduleView, 1, 1);
    charts->setColumnStretch(0, 3);
    charts->setColumnStretch(1, 2);
    layout->addLayout(charts);

    m_moduleView->setModel(m_modules);
    m_moduleView->verticalHeader()->hide();
    m_moduleView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_moduleView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_moduleView->horizontalHeader()->setSectionResizeMode(ModuleShareModel::NameColumn,
                                                           QHeaderView::Stretch);
    m_moduleView->setMinimumHeight(240);
    m_moduleView->setWordWrap(false);

    m_auditTitle = sectionTitle(tr("Audit"), page);
    // Export beside the title: below the list it sits under the fold of a 1280x820 window.
    auto* auditHeader = new QHBoxLayout;
    auditHeader->addWidget(m_auditTitle);
    auditHeader->addStretch(1);
    auditHeader->addWidget(m_exportAudit);
    layout->addLayout(auditHeader);
    m_auditEmpty->setText(tr("Header valid, no warnings: it follows the format exactly."));
    layout->addWidget(m_auditEmpty);
    // Errors first (a scan's findings arrive after the header's notes), in natural name order
    // within a column the user sorts by; the source order stays within one severity.
    auto* sorted = new NaturalSortProxy(this);
    sorted->setSourceModel(m_audit);
    sorted->setSortRole(AuditModel::SortRole);
    m_auditView->setModel(sorted);
    m_auditView->setSortingEnabled(true);
    m_auditView->sortByColumn(AuditModel::SeverityColumn, Qt::DescendingOrder);
    m_auditView->setRootIsDecorated(false);
    m_auditView->setUniformRowHeights(true);
    m_auditView->setAlternatingRowColors(true);
    m_auditView->setMinimumHeight(160);
    m_auditView->header()->setStretchLastSection(false);
    m_auditView->header()->setSectionResizeMode(AuditModel::MessageColumn, QHeaderView::Stretch);
    layout->addWidget(m_auditView, 1);
    // Listing a leftover wrote nothing; removing it is the user's act.
    m_removeLeftovers->setToolTip(tr("Delete the unfinished temporary files of saves that were killed"));
    m_removeLeftovers->hide();
    m_exportAudit->setObjectName(QStringLiteral("exportAudit"));
    m_exportAudit->setToolTip(
        tr("Save the audit list as CSV, or as the JSON of the command line's findings."));
    auto* exportMenu = new QMenu(m_exportAudit);
    const auto baseName = [this] { return QFileInfo(m_summary.path).completeBaseName(); };
    exportMenu->addAction(tr("Audit List as CSV\u2026"), this, [this, baseName] {
        TableExport::saveAs(this, tr("Export Audit List"), baseName() + QStringLiteral(".audit.csv"),
                            tr("CSV files (*.csv)"), auditCsv());
    });
    exportMenu->addAction(tr("Audit List as JSON\u2026"), this, [this, baseName] {
        TableExport::saveAs(this, tr("Export Audit List"), baseName() + QStringLiteral(".audit.json"),
                            tr("JSON files (*.json)"), auditJson());
    });
    m_exportAudit->setMenu(exportMenu);
    layout->addWidget(m_removeLeftovers, 0, Qt::AlignLeft);
    connect(m_removeLeftovers, &QPushButton::clicked, this, &SummaryView::removeLeftoversRequested);
    m_auditView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_auditView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_auditView->indexAt(pos);
        if (index.data(AuditModel::CodeRole).toString() != QLatin1String("LeftoverTemporary"))
            return;
        QMenu menu(this);
        menu.addAction(tr("Remove Leftover Files"), this, &SummaryView::removeLeftoversRequested);
        menu.exec(m_auditView->viewport()->mapToGlobal(pos));
    });

    connect(m_auditView, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString tensor = index.data(AuditModel::TensorRole).toString();
        if (tensor.isEmpty())
            return;
        const Diagnostic& d = diagnosticAt(index);
        if (d.offset)
            emit elementActivated(tensor, *d.offset);
        else
            emit tensorActivated(tensor);
    });
    connect(m_audit, &QAbstractItemModel::rowsInserted, this, &SummaryView::updateAuditTitle);
    connect(m_audit, &QAbstractItemModel::rowsRemoved, this, &SummaryView::updateAuditTitle);
    connect(m_audit, &QAbstractItemModel::modelReset, this, &SummaryView::updateAuditTitle);

    setWidget(page);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
}

void SummaryView::addFact(const QString& key, const QString& title, int row, int column)
{
    auto* caption = new QLabel(title);
    caption->setForegroundRole(QPalette::PlaceholderText);
    auto* value = new QLabel;
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    value->setFont(f);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_grid->addWidget(caption, row, column);
    m_grid->addWidget(value, row + 1, column);
    m_facts.insert(key, value);
}

const Diagnostic& SummaryView::diagnosticAt(const QModelIndex& shown) const
{
    const auto* proxy = qobject_cast<const QAbstractProxyModel*>(shown.model());
    return m_audit->diagnostic(proxy ? proxy->mapToSource(shown).row() : shown.row());
}

QByteArray SummaryView::auditCsv() const
{
    return TableExport::csv(*m_auditView->model());
}

QByteArray SummaryView::auditJson() const
{
    const QAbstractItemModel* shown = m_auditView->model();
    std::vector<Diagnostic> rows;
    rows.reserve(static_cast<std::size_t>(shown->rowCount()));
    for (int row = 0; row < shown->rowCount(); ++row)
        rows.push_back(diagnosticAt(shown->index(row, 0)));
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(m_summary.path);
    json.key(QStringLiteral("findings"));
    writeDiagnosticsJson(json, rows);
    json.endObject();
    return json.data() + '\n';
}

void SummaryView::setSummary(const CheckpointSummary& s, std::vector<Diagnostic> warnings)
{
    m_summary = s;
    m_title->setText(s.name);
    m_path->setText(s.path);
    auto set = [this](const char* key, const QString& text, const QString& tip = {}) {
        QLabel* label = m_facts.value(QLatin1String(key));
        label->setText(text);
        label->setToolTip(tip);
    };
    set("parameters", formatCount(s.parameters),
        tr("%1 elements: every element of every tensor, scalars included").arg(formatGrouped(s.parameters)));
    set("tensors", formatGrouped(s.tensorCount));
    set("fileSize", formatBytes(s.fileBytes), tr("%1 bytes").arg(formatGrouped(s.fileBytes)));
    set("tensorBytes", formatBytes(s.tensorBytes), tr("%1 bytes").arg(formatGrouped(s.tensorBytes)));
    set("headerBytes", formatBytes(s.headerBytes),
        tr("%1 bytes, length prefix included").arg(formatGrouped(s.headerBytes)));
    set("shards", QString::number(s.shards));
    set("metadataKeys", QString::number(s.metadataKeys));
    QStringList dtypes;
    for (const DtypeTotals& d : s.dtypes)
        dtypes << dtypeName(d.dtype);
    // A long list would widen the page past the window; the tooltip has it all.
    if (dtypes.isEmpty())
        set("dtypes", tr("none"));
    else if (dtypes.size() <= 4)
        set("dtypes", dtypes.join(QStringLiteral(", ")));
    else
        set("dtypes", tr("%1 dtypes").arg(dtypes.size()), dtypes.join(QStringLiteral(", ")));

    m_chart->setTotals(s.dtypes);
    m_modules->setModules(s.modules);
    m_moduleView->resizeColumnsToContents();
    m_moduleView->horizontalHeader()->setSectionResizeMode(ModuleShareModel::NameColumn,
                                                           QHeaderView::Stretch);
    m_audit->setDiagnostics(std::move(warnings));
}

void SummaryView::setProfile(std::shared_ptr<const ModelProfile> profile)
{
    if (profile)
        m_audit->addDiagnostics(QStringLiteral("architecture"), profile->findings());
    m_architecture->setProfile(std::move(profile));
}

QString SummaryView::fact(const QString& key) const
{
    const QLabel* label = m_facts.value(key);
    return label ? label->text() : QString();
}

void SummaryView::updateAuditTitle()
{
    const int n = m_audit->rowCount();
    // Fitted again whenever rows arrive (a scan's findings come after the header's warnings), so
    // codes and tensor names are not cut to "Na…"; a tensor name takes at most a third of the view.
    for (int c = 0; c < AuditModel::NUM_COLUMNS; ++c) {
        if (c == AuditModel::MessageColumn)
            continue;
        m_auditView->resizeColumnToContents(c);
        if (c == AuditModel::TensorColumn)
            m_auditView->setColumnWidth(c, std::min(m_auditView->columnWidth(c), std::max(160, width() / 3)));
    }
    m_auditTitle->setText(n == 0 ? tr("Audit") : tr("Audit (%1)").arg(n));
    m_auditEmpty->setVisible(n == 0);
    m_auditView->setVisible(n > 0);
    bool leftovers = false;
    for (int row = 0; row < n && !leftovers; ++row)
        leftovers = m_audit->diagnostic(row).code == QLatin1String("LeftoverTemporary");
    m_removeLeftovers->setVisible(leftovers);
}

} // namespace ts::ui
