#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace ts::ui {

// What the window shows with nothing open: how to open a model, and the recent ones.
class StartPage final : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    void refresh();
    QListWidget* recentList() const { return m_recent; }

signals:
    void openRequested(const QString& path);
    void openFileRequested();
    void openFolderRequested();
    void openUrlRequested();

private:
    QListWidget* m_recent;
    QLabel* m_recentTitle;
    QPushButton* m_clear;
};

} // namespace ts::ui
