#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace ts::ui {

class MainWindow;

// macOS hands a Finder double-click (or a drop on the Dock icon) to the application as a
// QFileOpenEvent, not as an argument. This filter on the application object opens each such file
// as a tab. The first events can arrive before the window exists: they wait for setWindow().
class FileOpenFilter final : public QObject {
    Q_OBJECT
public:
    // Installs itself on the application (QCoreApplication::instance()).
    explicit FileOpenFilter(QObject* parent = nullptr);
    ~FileOpenFilter() override;

    // Opens the files that waited, and every later one, in `window`.
    void setWindow(MainWindow* window);
    QStringList pending() const { return m_pending; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointer<MainWindow> m_window;
    QStringList m_pending;
};

} // namespace ts::ui
