#include "window/X11StartupNotification.h"

#include <QGuiApplication>
#include <QWidget>

#ifdef TS_HAVE_XCB
#include <QtGui/qguiapplication_platform.h>

#include <xcb/xcb.h>

#include <cstdlib>
#include <cstring>
#endif

namespace ts::ui {

QByteArray X11StartupNotification::removeMessage(const QByteArray& startupId)
{
    QByteArray escaped;
    for (char c : startupId) {
        if (c == '"' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    return QByteArrayLiteral("remove: ID=\"") + escaped + '"';
}

#ifdef TS_HAVE_XCB
namespace {

xcb_atom_t atom(xcb_connection_t* c, const char* name)
{
    xcb_intern_atom_reply_t* reply = xcb_intern_atom_reply(
        c, xcb_intern_atom(c, 0, static_cast<std::uint16_t>(std::strlen(name)), name), nullptr);
    const xcb_atom_t a = reply ? reply->atom : static_cast<xcb_atom_t>(XCB_ATOM_NONE);
    std::free(reply);
    return a;
}

} // namespace

bool X11StartupNotification::complete(QWidget* window, const QByteArray& startupId)
{
    auto* x11 = qApp ? qApp->nativeInterface<QNativeInterface::QX11Application>() : nullptr;
    if (!x11 || !window || startupId.isEmpty())
        return false;
    xcb_connection_t* c = x11->connection();
    const auto id = static_cast<xcb_window_t>(window->winId());
    const xcb_atom_t startupIdAtom = atom(c, "_NET_STARTUP_ID");
    const xcb_atom_t utf8 = atom(c, "UTF8_STRING");
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, id, startupIdAtom, utf8, 8,
                        static_cast<std::uint32_t>(startupId.size()), startupId.constData());
    // The message, NUL-terminated, in 20-byte client messages to the root window: the first of type
    // _NET_STARTUP_INFO_BEGIN, the rest _NET_STARTUP_INFO (spec: "Sending messages").
    QByteArray message = removeMessage(startupId);
    message += '\0';
    const xcb_atom_t begin = atom(c, "_NET_STARTUP_INFO_BEGIN");
    const xcb_atom_t more = atom(c, "_NET_STARTUP_INFO");
    const xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    for (qsizetype at = 0; at < message.size(); at += 20) {
        xcb_client_message_event_t event;
        std::memset(&event, 0, sizeof event);
        event.response_type = XCB_CLIENT_MESSAGE;
        event.format = 8;
        event.window = id;
        event.type = at == 0 ? begin : more;
        std::memcpy(event.data.data8, message.constData() + at,
                    static_cast<std::size_t>(std::min<qsizetype>(20, message.size() - at)));
        xcb_send_event(c, 0, root, XCB_EVENT_MASK_PROPERTY_CHANGE, reinterpret_cast<const char*>(&event));
    }
    xcb_flush(c);
    return true;
}
#else
bool X11StartupNotification::complete(QWidget*, const QByteArray&)
{
    return false;
}
#endif

} // namespace ts::ui
