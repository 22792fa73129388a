#include "window/LaunchActivation.h"

#include "window/X11StartupNotification.h"

#include <QGuiApplication>
#include <QWidget>

namespace ts::ui {

LaunchActivation LaunchActivation::fromEnvironment()
{
    return {qgetenv("DESKTOP_STARTUP_ID"), qgetenv("XDG_ACTIVATION_TOKEN")};
}

void LaunchActivation::raise(QWidget* window) const
{
    if (!activationToken.isEmpty() && QGuiApplication::platformName().startsWith(QLatin1String("wayland"))) {
        // Qt 6.4's wayland plugin reads the token from the environment when a window asks to be
        // activated (QWaylandXdgSurface::requestActivate, qtwayland v6.4.2) and unsets it once used.
        qputenv("XDG_ACTIVATION_TOKEN", activationToken);
    }
    // X11: Qt 6.4 applies a startup id only to a window it maps for the first time (and takes it
    // only through a private header), so the running window completes the notification itself.
    if (!startupId.isEmpty() && QGuiApplication::platformName() == QLatin1String("xcb"))
        X11StartupNotification::complete(window, startupId);
    window->setWindowState((window->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    window->raise();
    window->activateWindow();
}

} // namespace ts::ui
