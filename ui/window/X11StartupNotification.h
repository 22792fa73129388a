#pragma once

#include <QByteArray>

class QWidget;

namespace ts::ui {

// Completes an X11 startup notification on a window that is already on screen: the running
// window, raised for a second launch that handed it its files. Qt 6.4 does both steps only for a
// window it maps for the first time, and offers the startup id only through a private header.
//  - Sets _NET_STARTUP_ID on the window, which window managers read to tie the window to the
//    launch. (Not _NET_WM_USER_TIME from the id's "_TIME" part: Qt rewrites it with its own
//    timestamp when the window is activated.)
//  - Broadcasts "remove: ID=..." (freedesktop startup-notification spec 0.1), which ends the
//    launcher's busy cursor at once instead of at its timeout.
// Does nothing and returns false off X11 (Wayland uses XDG_ACTIVATION_TOKEN, LaunchActivation).
class X11StartupNotification {
public:
    static bool complete(QWidget* window, const QByteArray& startupId);
    // The spec's message for an id: remove: ID="..." with '"' and '\' escaped by '\'.
    static QByteArray removeMessage(const QByteArray& startupId);
};

} // namespace ts::ui
