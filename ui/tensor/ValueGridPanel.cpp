#include "tensor/ValueGridPanel.h"

#include "tensor/AxisPicker.h"
#include "tensor/ValueGridModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>
#include <map>

namespace ts::ui {

ValueGridPanel::ValueGridPanel(QWidget* parent)
    : TensorPanel(parent), m_axes(new AxisPicker(this)), m_goTo(new QLineEdit(this)),
      m_info(new QLabel(this)), m_model(new ValueGridModel(this)), m_view(new QTableView(this))
{
    m_goTo->setPlaceholderText(tr("Go to row, column"));
    m_goTo->setMaximumWidth(160);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_goTo);
    controls->addStretch(1);
    m_view->setModel(m_model);
    m_view->setMinimumHeight(260);
    // Fixed sizes: a lazy model must not be asked for every cell to size columns to contents.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setDefaultSectionSize(
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("-0.00000000e+00")));
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* copy = new QAction(tr("Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(copy);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_axes);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_info);
    connect(copy, &QAction::triggered, this, &ValueGridPanel::copySelection);
    connect(m_goTo, &QLineEdit::returnPressed, this, [this] {
        if (!goTo(m_goTo->text()))
            m_info->setText(tr("No cell %1 in this plane.").arg(m_goTo->text()));
    });
    connect(m_axes, &AxisPicker::changed, this, &ValueGridPanel::reset);
}

void ValueGridPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_modelData = model;
    m_tensor = model ? tensor : -1;
    if (m_tensor >= 0) {
        const QSignalBlocker blocker(m_axes);
        m_axes->setShape(std::shared_ptr<const Shape>(
            model, &model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape));
    }
    reset();
}

void ValueGridPanel::reset()
{
    if (m_tensor < 0) {
        m_model->clear();
        m_info->clear();
        return;
    }
    const CheckpointTensor& t = m_modelData->tensors()[static_cast<std::size_t>(m_tensor)];
    m_model->setTensor(m_modelData->location(m_tensor), t.info, m_axes->spec());
    m_info->setText(tr("%1 \u00d7 %2 values of %3, decoded as they scroll into view.")
                        .arg(m_model->plane().rows)
                        .arg(m_model->plane().cols)
                        .arg(dtypeName(t.info.dtype)));
}

bool ValueGridPanel::goTo(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    bool ok1 = true, ok2 = true;
    int row = 0, col = 0;
    if (parts.size() == 1) {
        // One number: an element of a vector (one column), or a row.
        row = parts[0].trimmed().toInt(&ok1);
    } else if (parts.size() == 2) {
        row = parts[0].trimmed().toInt(&ok1);
        col = parts[1].trimmed().toInt(&ok2);
    } else {
        return false;
    }
    const QModelIndex index = m_model->index(row, col);
    if (!ok1 || !ok2 || !index.isValid())
        return false;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

bool ValueGridPanel::goToElement(std::uint64_t flat)
{
    if (m_tensor < 0)
        return false;
    const auto cell =
        planeCellOf(m_modelData->tensors()[static_cast<std::size_t>(m_tensor)].info.shape, flat);
    return cell && goToCell(cell->spec, cell->row, cell->col);
}

bool ValueGridPanel::goToCell(const PlaneSpec& spec, std::uint64_t row, std::uint64_t col)
{
    if (m_tensor < 0)
        return false;
    if (m_modelData->tensors()[static_cast<std::size_t>(m_tensor)].info.shape.size() == 1)
        return goTo(QString::number(col)); // a vector is one column here and one strip there
    m_axes->setSpec(spec);
    return goTo(QStringLiteral("%1, %2").arg(row).arg(col));
}

QString ValueGridPanel::selectionText() const
{
    // Rows of tab-separated values, as spreadsheets paste them; gaps in a ragged selection stay empty.
    std::map<int, std::map<int, QString>> cells;
    int minCol = std::numeric_limits<int>::max(), maxCol = -1;
    const QModelIndexList selected = m_view->selectionModel()->selectedIndexes();
    for (const QModelIndex& index : selected) {
        cells[index.row()][index.column()] = index.data().toString();
        minCol = std::min(minCol, index.column());
        maxCol = std::max(maxCol, index.column());
    }
    QStringList lines;
    for (const auto& [row, cols] : cells) {
        QStringList line;
        for (int c = minCol; c <= maxCol; ++c) {
            const auto it = cols.find(c);
            line << (it == cols.end() ? QString() : it->second);
        }
        lines << line.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void ValueGridPanel::copySelection() const
{
    QApplication::clipboard()->setText(selectionText());
}

} // namespace ts::ui
