#include "window/StartPage.h"

#include "checkpoint/FolderModels.h"
#include "io/RemoteLocation.h"
#include "window/RecentFiles.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace ts::ui {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), m_recent(new QListWidget(this)), m_recentTitle(new QLabel(tr("Recent"), this)),
      m_clear(new QPushButton(tr("Clear Recent"), this))
{
    auto* icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    auto* title = new QLabel(tr("Tensorscope"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    title->setFont(big);
    auto* subtitle = new QLabel(tr("Open a .safetensors file, a sharded model's folder or its index.json, "
                                   "a PyTorch checkpoint (.bin, .pt, .pth, .ckpt; read without running it), "
                                   "or drop one onto this window; or open one on a server by its URL."),
                                this);
    subtitle->setWordWrap(true);
    auto* openFile = new QPushButton(tr("Open File\u2026"), this);
    auto* openFolder = new QPushButton(tr("Open Folder\u2026"), this);
    auto* openUrl = new QPushButton(tr("Open URL\u2026"), this);
    // Two lines per entry (name, folder); alternating rows keep entries apart.
    m_recent->setAlternatingRowColors(true);
    m_recent->setUniformItemSizes(true);
    QFont bold = m_recentTitle->font();
    bold.setBold(true);
    m_recentTitle->setFont(bold);

    auto* heading = new QHBoxLayout;
    heading->addWidget(icon);
    heading->addWidget(title, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(openFile);
    buttons->addWidget(openFolder);
    buttons->addWidget(openUrl);
    buttons->addStretch(1);
    auto* recentBar = new QHBoxLayout;
    recentBar->addWidget(m_recentTitle, 1);
    recentBar->addWidget(m_clear);

    auto* column = new QVBoxLayout;
    column->addLayout(heading);
    column->addWidget(subtitle);
    column->addLayout(buttons);
    column->addSpacing(16);
    column->addLayout(recentBar);
    column->addWidget(m_recent, 1);
    // A readable column in the middle of a wide window.
    auto* layout = new QHBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(column, 4);
    layout->addStretch(1);

    connect(openFile, &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(openFolder, &QPushButton::clicked, this, &StartPage::openFolderRequested);
    connect(openUrl, &QPushButton::clicked, this, &StartPage::openUrlRequested);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit openRequested(item->data(Qt::UserRole).toString()); });
    connect(m_clear, &QPushButton::clicked, this, [this] {
        RecentFiles::clear();
        refresh();
    });
    refresh();
}

void StartPage::refresh()
{
    m_recent->clear();
    const QStringList paths = RecentFiles::paths();
    for (const QString& path : paths) {
        if (RemoteLocation::isRemote(path)) { // no file to look at: the name, and where it is
            auto* item =
                new QListWidgetItem(tr("%1\n%2").arg(RemoteLocation::fileName(path), path), m_recent);
            item->setData(Qt::UserRole, path);
            item->setToolTip(path);
            continue;
        }
        const QFileInfo info(path);
        auto* item = new QListWidgetItem(tr("%1\n%2").arg(info.fileName(), info.absolutePath()), m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        // A shard set without an index is remembered by its pattern path, which names no file.
        const bool present =
            FolderModels::isShardSetPattern(info.fileName()) ? info.dir().exists() : info.exists();
        if (!present)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
    if (paths.isEmpty())
        new QListWidgetItem(tr("Files you open appear here."), m_recent);
    m_recent->item(0)->setFlags(paths.isEmpty() ? Qt::NoItemFlags : m_recent->item(0)->flags());
    m_clear->setEnabled(!paths.isEmpty());
}

} // namespace ts::ui
