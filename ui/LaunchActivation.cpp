#include "LaunchActivation.h"

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
    // X11: the startup id arrives but is not applied. Qt 6.4's xcb plugin would take it through
    // its "setstartupid" integration function, which is reachable only through the private
    // QPlatformNativeInterface header (qt6-base-private-dev), a build dependency we do not take on.
    // Even then Qt sends the launcher's "remove:" message only when it maps a new top-level
    // window, not when an existing one is raised.
    window->setWindowState((window->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    window->raise();
    window->activateWindow();
}

} // namespace ts::ui
