#pragma once

#include <QByteArray>

class QWidget;

namespace ts::ui {

// What a launcher gives a new process so that its window may take the focus: the X11 startup
// notification id (DESKTOP_STARTUP_ID) and the Wayland xdg-activation token (XDG_ACTIVATION_TOKEN).
// A second launch that hands its files to the running window forwards both (SingleInstance), and
// the running window raises itself with them: without them, focus-stealing prevention keeps it
// behind the file manager, and the launcher's busy cursor spins until it times out.
struct LaunchActivation {
    QByteArray startupId;
    QByteArray activationToken;

    // This process's own, from the environment. Call it before creating the QApplication: Qt's
    // xcb plugin takes DESKTOP_STARTUP_ID out of the environment when it connects.
    static LaunchActivation fromEnvironment();
    bool isEmpty() const { return startupId.isEmpty() && activationToken.isEmpty(); }

    // Hands the token to the platform plugin, then brings `window` forward (out of the Dock or
    // taskbar, raised, activated).
    void raise(QWidget* window) const;
};

} // namespace ts::ui
