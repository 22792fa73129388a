// The running window completes an X11 startup notification for a second launch (LaunchActivation,
// X11StartupNotification), on a real X server (ctest runs this under xvfb-run with the xcb
// platform): the window gets _NET_STARTUP_ID, and the root window receives
// the spec's "remove:" message, which a launcher waits for to end its busy cursor.
#include "window/LaunchActivation.h"
#include "window/X11StartupNotification.h"

#include <QGuiApplication>
#include <QTest>
#include <QWidget>

#include <xcb/xcb.h>

#include <cstdlib>
#include <cstring>
#include <memory>

using namespace ts::ui;

namespace {

// A second client of the same X server: what a launcher or window manager sees.
class Observer {
public:
    Observer() : m_c(xcb_connect(nullptr, nullptr))
    {
        m_root = xcb_setup_roots_iterator(xcb_get_setup(m_c)).data->root;
        const std::uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(m_c, m_root, XCB_CW_EVENT_MASK, &mask);
        std::free(
            xcb_get_input_focus_reply(m_c, xcb_get_input_focus(m_c), nullptr)); // a round trip: selected
    }
    ~Observer() { xcb_disconnect(m_c); }

    xcb_atom_t atom(const char* name)
    {
        auto* r = xcb_intern_atom_reply(
            m_c, xcb_intern_atom(m_c, 0, static_cast<std::uint16_t>(std::strlen(name)), name), nullptr);
        const xcb_atom_t a = r->atom;
        std::free(r);
        return a;
    }

    QByteArray property(xcb_window_t window, const char* name)
    {
        auto* r = xcb_get_property_reply(
            m_c, xcb_get_property(m_c, 0, window, atom(name), XCB_GET_PROPERTY_TYPE_ANY, 0, 1024), nullptr);
        QByteArray value;
        if (r)
            value = QByteArray(static_cast<const char*>(xcb_get_property_value(r)),
                               xcb_get_property_value_length(r)); // in bytes
        std::free(r);
        return value;
    }

    // The startup-info message sent to the root window, reassembled up to its NUL.
    QByteArray nextStartupMessage()
    {
        const xcb_atom_t begin = atom("_NET_STARTUP_INFO_BEGIN");
        const xcb_atom_t more = atom("_NET_STARTUP_INFO");
        QByteArray message;
        bool started = false;
        const bool complete = QTest::qWaitFor(
            [&] {
                while (xcb_generic_event_t* e = xcb_poll_for_event(m_c)) {
                    std::unique_ptr<xcb_generic_event_t, decltype(&std::free)> owned(e, &std::free);
                    if ((e->response_type & 0x7f) != XCB_CLIENT_MESSAGE)
                        continue;
                    auto* cm = reinterpret_cast<xcb_client_message_event_t*>(e);
                    if (cm->type == begin) {
                        message.clear();
                        started = true;
                    } else if (cm->type != more || !started) {
                        continue;
                    }
                    const char* data = reinterpret_cast<const char*>(cm->data.data8);
                    const qsizetype n = qstrnlen(data, 20);
                    message.append(data, n);
                    if (n < 20)
                        return true;
                }
                return false;
            },
            5000);
        return complete ? message : QByteArray("(no complete message)");
    }

private:
    xcb_connection_t* m_c;
    xcb_window_t m_root;
};

} // namespace

class TestX11Startup : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (QGuiApplication::platformName() != QLatin1String("xcb"))
            QFAIL("needs the xcb platform on an X server (ctest runs it under xvfb-run with "
                  "QT_QPA_PLATFORM=xcb)");
    }

    void raisingTheRunningWindowCompletesTheNotification()
    {
        QWidget window;
        window.resize(200, 100);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Observer observer;
        LaunchActivation launch;
        launch.startupId = QByteArrayLiteral("dolphin-1234-host-tensorscope-0_TIME4242");
        launch.raise(&window);
        QCOMPARE(observer.nextStartupMessage(),
                 QByteArrayLiteral("remove: ID=\"dolphin-1234-host-tensorscope-0_TIME4242\""));
        const auto id = static_cast<xcb_window_t>(window.winId());
        QCOMPARE(observer.property(id, "_NET_STARTUP_ID"), launch.startupId);
    }

    void quotesAndBackslashesAreEscaped()
    {
        QCOMPARE(X11StartupNotification::removeMessage(QByteArrayLiteral("a\"b\\c")),
                 QByteArrayLiteral("remove: ID=\"a\\\"b\\\\c\""));
        QWidget window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Observer observer;
        QVERIFY(X11StartupNotification::complete(&window, QByteArrayLiteral("x\"y")));
        QCOMPARE(observer.nextStartupMessage(), QByteArrayLiteral("remove: ID=\"x\\\"y\""));
    }
};

QTEST_MAIN(TestX11Startup)
#include "tst_x11_startup.moc"
