#include "tensor/TensorBrowser.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "tensor/TensorDetailsView.h"
#include "tensor/TensorExport.h"
#include "tensor/TensorTreeModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::ui {
namespace {

// Filters that leave this few tensors are expanded so the matches are visible at once.
constexpr int kExpandBelow = 400;

} // namespace

TensorBrowser::TensorBrowser(QWidget* parent)
    : QWidget(parent), m_model(new TensorTreeModel(this)), m_proxy(new TensorFilterProxy(this)),
      m_filter(new QLineEdit(this)), m_mode(new QComboBox(this)), m_dtype(new QComboBox(this)),
      m_matches(new QLabel(this)), m_debounce(new QTimer(this)), m_view(new QTreeView(this)),
      m_details(new TensorDetailsView(this)), m_filterJob(this)
{
    m_view->setObjectName(QStringLiteral("tree"));
    m_filter->setObjectName(QStringLiteral("filter"));
    m_mode->setObjectName(QStringLiteral("filterMode"));
    m_dtype->setObjectName(QStringLiteral("dtypeFilter"));
    m_matches->setObjectName(QStringLiteral("filterMatches"));
    m_proxy->setSourceModel(m_model);
    m_filter->setPlaceholderText(tr("Filter tensors (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_mode->addItem(tr("Substring"), static_cast<int>(TensorNameFilter::Mode::Substring));
    m_mode->addItem(tr("Glob"), static_cast<int>(TensorNameFilter::Mode::Glob));
    m_mode->addItem(tr("Regex"), static_cast<int>(TensorNameFilter::Mode::Regex));
    m_mode->setToolTip(tr("Substring: anywhere in the name. Glob: whole name, * ? [abc]. Regex: Perl syntax. "
                          "All case-insensitive."));
    m_dtype->setToolTip(tr("Show only tensors of one dtype"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);

    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(TensorTreeModel::NameColumn, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    // The name takes what the number columns leave.
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(TensorTreeModel::NameColumn, QHeaderView::Interactive);
    m_view->header()->setMinimumSectionSize(40);
    m_view->viewport()->installEventFilter(this);
    // A width the user dragged is theirs: from then on a resize of the pane no longer re-fits Name
    // and Shape (setColumnWidth from this class runs under m_sizingColumns and does not count).
    connect(m_view->header(), &QHeaderView::sectionResized, this, [this](int column, int, int) {
        if (!m_sizingColumns &&
            (column == TensorTreeModel::NameColumn || column == TensorTreeModel::ShapeColumn))
            m_userSizedColumns = true;
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_mode);
    bar->addWidget(m_dtype);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(bar);
    leftLayout->addWidget(m_view, 1);
    leftLayout->addWidget(m_matches);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("tensorSplitter")); // its key in WindowMemory: keep it stable
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_details); // it scrolls its facts itself
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });

    connect(m_filter, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_filter, &QLineEdit::returnPressed, this, &TensorBrowser::applyFilter);
    connect(m_debounce, &QTimer::timeout, this, &TensorBrowser::applyFilter);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &TensorBrowser::applyFilter);
    connect(m_dtype, &QComboBox::currentIndexChanged, this, &TensorBrowser::applyFilter);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &TensorBrowser::showContextMenu);
    auto* copyName = new QAction(tr("Copy Name"), m_view);
    copyName->setShortcut(QKeySequence::Copy);
    copyName->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(copyName);
    connect(copyName, &QAction::triggered, this, [this] {
        const QModelIndex current = m_view->currentIndex();
        if (current.isValid())
            QApplication::clipboard()->setText(current.data(TensorTreeModel::PathRole).toString());
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_details, &TensorDetailsView::readFailed, this, &TensorBrowser::readFailed);
}

void TensorBrowser::setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree)
{
    m_modelData = model;
    m_tree = tree;
    m_details->setModel(model);
    // The old filter's pass indexes the old tree: dropped before the new tree is shown.
    m_filterJob.cancel();
    m_filterPending = false;
    m_proxy->setResult(nullptr);
    m_model->setModel(model, tree);
    {
        const QSignalBlocker blocker(m_dtype);
        m_dtype->clear();
        m_dtype->addItem(tr("All dtypes"), -1);
        if (tree) {
            for (const DtypeTotals& d : tree->byDtype(NameTree::kRoot))
                m_dtype->addItem(dtypeName(d.dtype), static_cast<int>(d.dtype));
        }
    }
    applyFilter();
    if (m_model->rowCount() <= 3) {
        // Small trees (one top-level module) read better opened one level.
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            m_view->expand(m_proxy->index(r, 0));
    }
    sizeColumns();
}

void TensorBrowser::sizeColumns()
{
    // A new model is sized afresh: the user's widths were for the names of the last one.
    const QScopedValueRollback sizing(m_sizingColumns, true);
    m_userSizedColumns = false;
    // Measured over the tensors rather than the visible rows, so shapes deeper in the tree fit
    // too; a sample is enough for huge models.
    const QFontMetrics fm = m_view->fontMetrics();
    int shape = fm.horizontalAdvance(
        tr("%1 tensors").arg(formatGrouped(m_modelData ? m_modelData->tensors().size() : 0)));
    // The header text plus room for the sort arrow.
    const int arrow = m_view->style()->pixelMetric(QStyle::PM_HeaderMarkSize) + 8;
    int dtype = fm.horizontalAdvance(QStringLiteral("Dtype")) + arrow;
    if (m_tree) {
        for (const DtypeTotals& d : m_tree->byDtype(NameTree::kRoot))
            dtype = std::max(dtype, fm.horizontalAdvance(dtypeName(d.dtype)));
    }
    int offset = fm.horizontalAdvance(QStringLiteral("Offset"));
    int name = fm.horizontalAdvance(QStringLiteral("Name"));
    if (m_modelData && m_tree) {
        const auto& tensors = m_modelData->tensors();
        const std::size_t step = std::max<std::size_t>(1, tensors.size() / 4000);
        // Each node measured once: the sampled tensors share their upper nodes, and shaping text is
        // what this costs (a tenth of opening a 100k-tensor model, measuring "model" 4000 times).
        std::vector<bool> measured(m_tree->nodeCount(), false);
        // And each text once: shapes and leaf names ("weight", "[4096, 4096]") repeat.
        QHash<QString, int> widths;
        const auto advance = [&](const QString& text) {
            auto it = widths.constFind(text);
            if (it == widths.cend())
                it = widths.insert(text, fm.horizontalAdvance(text));
            return *it;
        };
        for (std::size_t i = 0; i < tensors.size(); i += step) {
            shape = std::max(shape, advance(tensors[i].info.shapeString()));
            // The name column shows one segment per row, indented by its depth: measured as the
            // rows show them (cut), from the tensor's node up.
            const NameTree::Node leaf = m_tree->nodeForTensor(static_cast<int>(i));
            // Indented by the depth the view shows (a huge group's ranges are a level of their own).
            for (NameTree::Node n = leaf; n != NameTree::kNone && n != NameTree::kRoot && !measured[n];
                 n = m_tree->parent(n)) {
                measured[n] = true;
                const int depth = m_model->viewDepth(n);
                const int width =
                    m_view->indentation() * depth + advance(itemText(m_tree->segment(n).toString()));
                name = std::max(name, width);
                // And the range row above it, if its group is shown in ranges ("w0 … w9999").
                const QModelIndex above = m_model->parent(m_model->indexForNode(n));
                if (m_model->rangeOf(above))
                    name = std::max(name,
                                    m_view->indentation() * (depth - 1) + advance(above.data().toString()));
            }
        }
        offset = std::max(offset, fm.horizontalAdvance(formatGrouped(m_modelData->totalFileBytes())));
    }
    const int pad = fm.horizontalAdvance(QLatin1Char('M')) * 2;
    // Only the dtypes the model holds: sized for "F8_E4M3FNUZ" every BF16 model lost the
    // Parameters and Bytes columns off the right edge at 1280x820.
    m_view->setColumnWidth(TensorTreeModel::DtypeColumn, dtype + pad);
    m_shapeWidthWanted = std::min(shape + pad, 240);
    m_view->setColumnWidth(TensorTreeModel::ShapeColumn, m_shapeWidthWanted);
    m_view->setColumnWidth(TensorTreeModel::ParametersColumn,
                           fm.horizontalAdvance(QStringLiteral("Parameters")) + arrow + pad);
    m_view->setColumnWidth(TensorTreeModel::BytesColumn,
                           fm.horizontalAdvance(QStringLiteral("1023 KiB")) + arrow + pad);
    m_view->setColumnWidth(TensorTreeModel::OffsetColumn, offset + pad);
    // Names first: a narrow pane scrolls sideways rather than eliding every name to "p...".
    m_nameWidthWanted = std::min(name + pad, 420);
    m_view->setColumnWidth(TensorTreeModel::NameColumn, m_nameWidthWanted);
    m_treeWidthWanted = m_view->frameWidth() * 2 + m_view->verticalScrollBar()->sizeHint().width();
    for (int c = TensorTreeModel::NameColumn; c <= TensorTreeModel::BytesColumn; ++c)
        m_treeWidthWanted += m_view->columnWidth(c);
    applyDefaultSplit();
    fitNameColumn();
}

void TensorBrowser::fitNameColumn()
{
    if (m_nameWidthWanted == 0 || m_userSizedColumns)
        return;
    const QScopedValueRollback sizing(m_sizingColumns, true);
    int fixed = 0; // Dtype, Parameters, Bytes: narrow already, and what the user looks for
    for (int c :
         {TensorTreeModel::DtypeColumn, TensorTreeModel::ParametersColumn, TensorTreeModel::BytesColumn})
        fixed += m_view->columnWidth(c);
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('m'));
    const int leastName = std::min(em * 11, m_nameWidthWanted);
    const int leastShape = std::min(em * 7, m_shapeWidthWanted);
    int room = m_view->viewport()->width() - fixed;
    const int name = std::clamp(room - m_shapeWidthWanted, leastName, m_nameWidthWanted);
    const int shape = std::clamp(room - name, leastShape, m_shapeWidthWanted);
    m_view->setColumnWidth(TensorTreeModel::NameColumn, name);
    m_view->setColumnWidth(TensorTreeModel::ShapeColumn, shape);
}

bool TensorBrowser::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    return QWidget::eventFilter(watched, event);
}

void TensorBrowser::applyDefaultSplit()
{
    if (m_userSplit || m_treeWidthWanted == 0 || m_splitter->property("restored").toBool())
        return;
    const int total = m_splitter->width() - m_splitter->handleWidth();
    if (total <= 0)
        return;
    const int tree = std::clamp(m_treeWidthWanted, total * 30 / 100, total * 50 / 100);
    m_splitter->setSizes({tree, total - tree});
}

void TensorBrowser::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    applyDefaultSplit();
}

void TensorBrowser::applyFilter()
{
    m_debounce->stop();
    const auto mode = static_cast<TensorNameFilter::Mode>(m_mode->currentData().toInt());
    const int dtype = m_dtype->currentData().toInt();
    TensorNameFilter filter(mode, m_filter->text(),
                            dtype >= 0 ? std::optional(static_cast<Dtype>(dtype)) : std::nullopt);
    m_patternError = filter.error();
    m_filter->setToolTip(filter.isValid() ? QString() : tr("Invalid pattern: %1").arg(m_patternError));
    if (!filter.isActive() || !m_modelData || !m_tree) {
        // Nothing to leave out: shown at once, and a pass still running is of no use now.
        m_filterJob.cancel();
        m_filterPending = false;
        m_proxy->setResult(nullptr);
        m_matchCount = m_modelData ? static_cast<int>(m_modelData->tensors().size()) : 0;
        updateMatchLabel();
        emit filterApplied();
        return;
    }
    // The pass runs on the pool: the tree keeps showing the last filter until it is done, and a
    // newer keystroke supersedes it (its result is dropped).
    m_filterPending = true;
    std::shared_ptr<const Checkpoint> model = m_modelData;
    std::shared_ptr<const NameTree> tree = m_tree;
    m_filterJob.start([model, tree, filter = std::move(filter)](
                          const JobControl& control) { return filterTree(*model, *tree, filter, control); },
                      [this, tree](TreeFilterResult result) {
                          if (result.cancelled || tree != m_tree)
                              return;
                          showFilterResult(std::make_shared<const TreeFilterResult>(std::move(result)));
                      },
                      [this](const Progress& progress) {
                          if (progress.bytesTotal == 0 || progress.bytesDone >= progress.bytesTotal)
                              return;
                          m_matches->setText(tr("Filtering %1 of %2 names\u2026")
                                                 .arg(formatGrouped(progress.bytesDone),
                                                      formatGrouped(progress.bytesTotal)));
                      });
}

void TensorBrowser::showFilterResult(std::shared_ptr<const TreeFilterResult> result)
{
    m_filterPending = false;
    m_matchCount = static_cast<int>(result->matches);
    m_proxy->setResult(std::move(result));
    if (m_matchCount <= kExpandBelow)
        m_view->expandAll();
    updateMatchLabel();
    emit filterApplied();
}

void TensorBrowser::updateMatchLabel()
{
    const int total = m_modelData ? static_cast<int>(m_modelData->tensors().size()) : 0;
    if (!m_patternError.isEmpty())
        m_matches->setText(tr("Invalid pattern: %1").arg(m_patternError));
    else if (m_proxy->isFiltering())
        m_matches->setText(
            total == 1 ? tr("%1 of 1 tensor matches").arg(m_matchCount)
                       : tr("%1 of %2 tensors match").arg(formatGrouped(m_matchCount), formatGrouped(total)));
    else
        m_matches->setText(total == 1 ? tr("1 tensor") : tr("%1 tensors").arg(formatGrouped(total)));
}

int TensorBrowser::matchingTensorCount() const
{
    return m_matchCount;
}

void TensorBrowser::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

bool TensorBrowser::selectTensor(const QString& name)
{
    if (!m_modelData)
        return false;
    const int tensor = m_modelData->indexOf(name);
    if (tensor < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->indexForTensor(tensor));
    if (!index.isValid()) {
        m_filter->clear();
        m_dtype->setCurrentIndex(0);
        applyFilter();
        index = m_proxy->mapFromSource(m_model->indexForTensor(tensor));
    }
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return index.isValid();
}

void TensorBrowser::onCurrentChanged(const QModelIndex& current)
{
    m_details->showNode(m_model->tree(), m_model->node(m_proxy->mapToSource(current)));
}

void TensorBrowser::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    QMenu menu(this);
    if (index.isValid()) {
        const QString name = index.data(TensorTreeModel::PathRole).toString();
        const QString shape = index.siblingAtColumn(TensorTreeModel::ShapeColumn).data().toString();
        const bool isTensor = index.data(TensorTreeModel::TensorIndexRole).toInt() >= 0;
        menu.addAction(tr("Copy Name"), this, [name] { QApplication::clipboard()->setText(name); })
            ->setShortcut(QKeySequence::Copy);
        QAction* copyShape =
            menu.addAction(tr("Copy Shape"), this, [shape] { QApplication::clipboard()->setText(shape); });
        copyShape->setEnabled(isTensor);
        const int tensor = index.data(TensorTreeModel::TensorIndexRole).toInt();
        menu.addAction(tr("Export Tensor\u2026"), this,
                       [this, tensor] {
                           TensorExport::exportWithDialog(
                               this, m_modelData, tensor,
                               [this](const Error& error) { emit readFailed(error); });
                       })
            ->setEnabled(isTensor);
        menu.addSeparator();
    }
    menu.addAction(tr("Expand All"), m_view, &QTreeView::expandAll);
    menu.addAction(tr("Collapse All"), m_view, &QTreeView::collapseAll);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace ts::ui
