#include "metadata/MetadataView.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "checkpoint/CheckpointJson.h"
#include "common/DisplayText.h"
#include "metadata/JsonEditDialog.h"
#include "metadata/JsonPretty.h"
#include "metadata/MetadataCommands.h"
#include "metadata/MetadataModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ts::ui {

MetadataView::MetadataView(QWidget* parent)
    : QWidget(parent), m_model(new MetadataModel(this)), m_stack(new QStackedWidget(this)),
      m_table(new QTableView(this)), m_valueTitle(new QLabel(this)), m_meaning(new QLabel(this)),
      m_value(new QPlainTextEdit(this)), m_copyJson(new QPushButton(tr("Copy as JSON"), this)),
      m_copyValue(new QPushButton(tr("Copy value"), this)), m_add(new QPushButton(tr("Add Key"), this)),
      m_edit(new QPushButton(tr("Edit Value\u2026"), this)), m_remove(new QPushButton(tr("Remove Key"), this))
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);

    m_value->setReadOnly(true);
    m_value->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_value->setPlaceholderText(tr("Select a key to see its value."));
    QFont bold = m_valueTitle->font();
    bold.setBold(true);
    m_valueTitle->setFont(bold);
    m_valueTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_valueTitle->setWordWrap(true);
    // A key can be long and without spaces: it is cut at the edge rather than widening the window.
    QSizePolicy titlePolicy = m_valueTitle->sizePolicy();
    titlePolicy.setHorizontalPolicy(QSizePolicy::Ignored);
    m_valueTitle->setSizePolicy(titlePolicy);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_valueTitle);
    m_meaning->setWordWrap(true);
    m_meaning->setTextFormat(Qt::PlainText);
    m_meaning->setForegroundRole(QPalette::PlaceholderText);
    m_meaning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_meaning->setSizePolicy(titlePolicy);
    m_meaning->hide();
    sideLayout->addWidget(m_meaning);
    sideLayout->addWidget(m_value, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("metadataSplitter")); // its key in WindowMemory: keep it stable
    splitter->addWidget(m_table);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* empty = new QLabel(tr("This file has no metadata."), this);
    empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(splitter);
    m_stack->addWidget(empty);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    buttons->addWidget(m_copyValue);
    buttons->addWidget(m_copyJson);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_stack, 1);
    layout->addLayout(buttons);

    connect(m_copyJson, &QPushButton::clicked, this, &MetadataView::copyAsJson);
    connect(m_copyValue, &QPushButton::clicked, this, &MetadataView::copyValue);
    connect(m_add, &QPushButton::clicked, this, &MetadataView::addKey);
    connect(m_edit, &QPushButton::clicked, this, &MetadataView::editSelectedValue);
    connect(m_remove, &QPushButton::clicked, this, &MetadataView::removeSelectedKey);
    // A JSON value is not editable in place (see MetadataModel::flags): its editor is the dialog.
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (m_model->isEditable() && index.column() == MetadataModel::ValueColumn &&
            index.data(MetadataModel::IsJsonRole).toBool())
            editSelectedValue();
    });
    // Undo and redo change rows under the selection: keep the side panel and the page in step.
    const auto refresh = [this] {
        m_stack->setCurrentIndex(m_model->rowCount() > 0 || m_model->isEditable() ? 0 : 1);
        // A new or renamed key should be readable; measuring is per row, so not for huge maps.
        if (m_model->rowCount() <= 1000) {
            const int before = m_table->columnWidth(MetadataModel::KeyColumn);
            m_table->resizeColumnToContents(MetadataModel::KeyColumn);
            m_table->setColumnWidth(MetadataModel::KeyColumn,
                                    qMax(before, qMin(m_table->columnWidth(MetadataModel::KeyColumn), 320)));
        }
        const QModelIndex current = m_table->currentIndex();
        showRow(current.isValid() ? current.row() : -1);
    };
    connect(m_model, &QAbstractItemModel::dataChanged, this, refresh);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, refresh);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, refresh);
    auto* removeAction = new QAction(tr("Remove Key"), m_table);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(removeAction, &QAction::triggered, this, &MetadataView::removeSelectedKey);
    m_table->addAction(removeAction);
    setUndoStack(nullptr);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showRow(current.isValid() ? current.row() : -1); });
}

void MetadataView::setMetadata(const std::optional<Metadata>& metadata)
{
    m_model->setMetadata(metadata);
    const bool any = m_model->rowCount() > 0;
    m_stack->setCurrentIndex(any || m_model->isEditable() ? 0 : 1);
    m_copyJson->setEnabled(metadata.has_value());
    m_table->resizeColumnToContents(MetadataModel::KeyColumn);
    m_table->setColumnWidth(MetadataModel::KeyColumn,
                            qMin(m_table->columnWidth(MetadataModel::KeyColumn), 320));
    // The value and its meaning share what is left; the meaning column stretches.
    m_table->setColumnWidth(MetadataModel::ValueColumn, 240);
    if (any) {
        // Open on the first structured value: that is what the side panel is for.
        int row = 0;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            if (m_model->index(r, MetadataModel::ValueColumn).data(MetadataModel::IsJsonRole).toBool()) {
                row = r;
                break;
            }
        }
        m_table->setCurrentIndex(m_model->index(row, MetadataModel::ValueColumn));
    } else
        showRow(-1);
}

void MetadataView::showRow(int row)
{
    const bool tooLarge = m_model->isTooLargeToEdit(row);
    m_copyValue->setEnabled(row >= 0);
    m_edit->setEnabled(row >= 0 && !tooLarge);
    m_edit->setToolTip(tooLarge ? tr("Too large to edit here: %1 characters at most")
                                      .arg(formatGrouped(MetadataModel::kMaxEditableChars))
                                : QString());
    m_remove->setEnabled(row >= 0);
    if (row < 0) {
        m_valueTitle->clear();
        m_meaning->clear();
        m_meaning->hide();
        m_value->clear();
        return;
    }
    const QString meaning = m_model->meaning(row);
    m_meaning->setText(itemText(meaning));
    m_meaning->setVisible(!meaning.isEmpty());
    const QModelIndex index = m_model->index(row, MetadataModel::ValueColumn);
    const QString key = m_model->index(row, MetadataModel::KeyColumn).data().toString(); // cut for display
    const QString value = index.data(MetadataModel::FullValueRole).toString();
    const bool json = index.data(MetadataModel::IsJsonRole).toBool();
    QString title = json ? tr("%1 (JSON)").arg(key) : key;
    m_value->setLineWrapMode(json ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    m_value->setWordWrapMode(value.size() > kWordWrapChars ? QTextOption::WrapAnywhere
                                                           : QTextOption::WrapAtWordBoundaryOrAnywhere);
    if (json) {
        const PrettyJson pretty = prettyJson(value.toUtf8());
        m_value->setPlainText(QString::fromUtf8(pretty.text));
        if (pretty.cut)
            title += tr(": %1 characters, too large to show in full; Copy value copies all of it")
                         .arg(formatGrouped(static_cast<std::uint64_t>(value.size())));
    } else if (value.size() > kTextViewChars) {
        // The text view lays out a paragraph whole, and a value can be 90 MB.
        m_value->setPlainText(elideText(value, kTextViewChars));
        title += tr(": %1 characters, too large to show in full; Copy value copies all of it")
                     .arg(formatGrouped(static_cast<std::uint64_t>(value.size())));
    } else {
        m_value->setPlainText(value);
    }
    m_valueTitle->setText(title);
}

QString MetadataView::metadataJson() const
{
    JsonWriter json;
    writeMetadataJson(json, m_model->metadata());
    return QString::fromUtf8(json.data());
}

void MetadataView::copyAsJson()
{
    QApplication::clipboard()->setText(metadataJson());
}

void MetadataView::copyValue()
{
    const QModelIndex index = m_table->currentIndex();
    if (index.isValid())
        QApplication::clipboard()->setText(m_model->index(index.row(), MetadataModel::ValueColumn)
                                               .data(MetadataModel::FullValueRole)
                                               .toString());
}

void MetadataView::setUndoStack(QUndoStack* stack)
{
    m_model->setUndoStack(stack);
    const bool editable = stack != nullptr;
    m_add->setVisible(editable);
    m_edit->setVisible(editable);
    m_remove->setVisible(editable);
    m_table->setEditTriggers(editable ? QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                                      : QAbstractItemView::NoEditTriggers);
    if (editable)
        m_stack->setCurrentIndex(0); // an empty map is where the first key gets added
}

void MetadataView::addKey()
{
    if (!m_model->isEditable())
        return;
    // A key is data, not UI text: not translated.
    QString key = QStringLiteral("new_key");
    for (int n = 2; m_model->rowOf(key) >= 0; ++n)
        key = QStringLiteral("new_key_%1").arg(n);
    const QModelIndex current = m_table->currentIndex();
    const int row = current.isValid() ? current.row() + 1 : m_model->rowCount();
    m_model->undoStack()->push(
        new AddRemoveKeyCommand(m_model, AddRemoveKeyCommand::Kind::Add, row, key, QString()));
    const QModelIndex keyIndex = m_model->index(row, MetadataModel::KeyColumn);
    m_table->setCurrentIndex(keyIndex);
    if (isVisible())
        m_table->edit(keyIndex);
}

void MetadataView::removeSelectedKey()
{
    const QModelIndex current = m_table->currentIndex();
    if (!m_model->isEditable() || !current.isValid())
        return;
    const int row = current.row();
    const QString key = m_model->index(row, MetadataModel::KeyColumn).data(MetadataModel::KeyRole).toString();
    const QString value =
        m_model->index(row, MetadataModel::ValueColumn).data(MetadataModel::FullValueRole).toString();
    m_model->undoStack()->push(
        new AddRemoveKeyCommand(m_model, AddRemoveKeyCommand::Kind::Remove, row, key, value));
}

void MetadataView::editSelectedValue()
{
    const QModelIndex current = m_table->currentIndex();
    if (!m_model->isEditable() || !current.isValid() || m_model->isTooLargeToEdit(current.row()))
        return;
    const int row = current.row();
    const QString key = m_model->index(row, MetadataModel::KeyColumn).data(MetadataModel::KeyRole).toString();
    const QString value =
        m_model->index(row, MetadataModel::ValueColumn).data(MetadataModel::FullValueRole).toString();
    JsonEditDialog dialog(key, value, this);
    if (dialog.exec() != QDialog::Accepted || dialog.value() == value)
        return;
    m_model->undoStack()->push(new SetValueCommand(m_model, key, value, dialog.value()));
}

} // namespace ts::ui
