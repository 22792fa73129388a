#include "MetadataView.h"

#include "JsonPretty.h"
#include "JsonWriter.h"
#include "MetadataModel.h"
#include "ModelJson.h"

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
#include <QVBoxLayout>

namespace ts::ui {

MetadataView::MetadataView(QWidget* parent)
    : QWidget(parent), m_model(new MetadataModel(this)), m_stack(new QStackedWidget(this)),
      m_table(new QTableView(this)), m_valueTitle(new QLabel(this)), m_value(new QPlainTextEdit(this)),
      m_copyJson(new QPushButton(tr("Copy as JSON"), this)),
      m_copyValue(new QPushButton(tr("Copy value"), this))
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

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_valueTitle);
    sideLayout->addWidget(m_value, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* empty = new QLabel(tr("This file has no metadata."), this);
    empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(splitter);
    m_stack->addWidget(empty);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_copyValue);
    buttons->addWidget(m_copyJson);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_stack, 1);
    layout->addLayout(buttons);

    connect(m_copyJson, &QPushButton::clicked, this, &MetadataView::copyAsJson);
    connect(m_copyValue, &QPushButton::clicked, this, &MetadataView::copyValue);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showRow(current.isValid() ? current.row() : -1); });
}

void MetadataView::setMetadata(const std::optional<Metadata>& metadata)
{
    m_model->setMetadata(metadata);
    const bool any = m_model->rowCount() > 0;
    m_stack->setCurrentIndex(any ? 0 : 1);
    m_copyJson->setEnabled(metadata.has_value());
    m_table->resizeColumnToContents(MetadataModel::KeyColumn);
    m_table->setColumnWidth(MetadataModel::KeyColumn,
                            qMin(m_table->columnWidth(MetadataModel::KeyColumn), 320));
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
    m_copyValue->setEnabled(row >= 0);
    if (row < 0) {
        m_valueTitle->clear();
        m_value->clear();
        return;
    }
    const QModelIndex index = m_model->index(row, MetadataModel::ValueColumn);
    const QString key = m_model->index(row, MetadataModel::KeyColumn).data().toString();
    const QString value = index.data(MetadataModel::FullValueRole).toString();
    const bool json = index.data(MetadataModel::IsJsonRole).toBool();
    m_valueTitle->setText(json ? tr("%1 (JSON)").arg(key) : key);
    m_value->setLineWrapMode(json ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    m_value->setPlainText(json ? QString::fromUtf8(prettyJsonText(value.toUtf8())) : value);
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

} // namespace ts::ui
