#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace ts::ui {

// The models a folder holds when it is not one model (two unrelated models, two copies of one,
// a shard set beside a single file): listed so the user opens the one they meant. Merging them
// would show a model that exists nowhere; refusing without a list leaves the user to guess.
class FolderModelPicker final : public QWidget {
    Q_OBJECT
public:
    explicit FolderModelPicker(QWidget* parent = nullptr);

    // Lists the folder's models (core/checkpoint/FolderModels); returns how many.
    int setFolder(const QString& folder);
    QListWidget* list() const { return m_list; }

signals:
    // The location to open: an index, a file, or a shard set's pattern path.
    void openRequested(const QString& location);

private:
    void open(const QListWidgetItem* item);

    QLabel* m_caption;
    QListWidget* m_list;
    QPushButton* m_open;
};

} // namespace ts::ui
