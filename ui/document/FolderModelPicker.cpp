#include "document/FolderModelPicker.h"

#include "base/Format.h"
#include "checkpoint/FolderModels.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::ui {

namespace {

QString kindText(const FolderModel& model)
{
    switch (model.kind) {
    case FolderModel::Kind::Index:
        return FolderModelPicker::tr("shard index");
    case FolderModel::Kind::ShardSet:
        return model.missing.isEmpty()
                   ? FolderModelPicker::tr("shards without an index")
                   : FolderModelPicker::tr("shards without an index, %1 missing").arg(model.missing.size());
    case FolderModel::Kind::SingleFile:
        break;
    }
    return FolderModelPicker::tr("single file");
}

} // namespace

FolderModelPicker::FolderModelPicker(QWidget* parent)
    : QWidget(parent), m_caption(new QLabel(this)), m_list(new QListWidget(this)),
      m_open(new QPushButton(tr("Open"), this))
{
    m_caption->setWordWrap(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_open->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_open);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_caption);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) { m_open->setEnabled(row >= 0); });
    connect(m_list, &QListWidget::itemActivated, this, &FolderModelPicker::open);
    connect(m_open, &QPushButton::clicked, this, [this] { open(m_list->currentItem()); });
}

int FolderModelPicker::setFolder(const QString& folder)
{
    m_list->clear();
    const std::vector<FolderModel> models = FolderModels::list(folder);
    for (const FolderModel& model : models) {
        // The size tells two copies from two models at a glance. An index gets none: its row is
        // the index file, and its shards' sizes would mean reading the index again here.
        std::uint64_t bytes = 0;
        const QStringList files = model.kind == FolderModel::Kind::Index ? QStringList{} : model.files;
        for (const QString& file : files)
            bytes += static_cast<std::uint64_t>(std::max<qint64>(0, QFileInfo(file).size()));
        const QString size = files.isEmpty() ? QString() : QStringLiteral("  \u00b7  ") + formatBytes(bytes);
        auto* item =
            new QListWidgetItem(tr("%1  \u00b7  %2").arg(model.label, kindText(model)) + size, m_list);
        item->setData(Qt::UserRole, model.location);
        QStringList tip{model.location};
        if (model.kind == FolderModel::Kind::ShardSet)
            tip << tr("%1 files").arg(model.files.size());
        if (!model.missing.isEmpty())
            tip << tr("Missing: %1").arg(model.missing.join(QStringLiteral(", ")));
        item->setToolTip(tip.join(QLatin1Char('\n')));
    }
    m_caption->setText(tr("Pick the one to open; each opens in its own tab:"));
    if (!models.empty())
        m_list->setCurrentRow(0);
    return static_cast<int>(models.size());
}

void FolderModelPicker::open(const QListWidgetItem* item)
{
    if (item)
        emit openRequested(item->data(Qt::UserRole).toString());
}

} // namespace ts::ui
