#include "window/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace ts::ui {
namespace {

const QString kKey = QStringLiteral("view/theme");

// The platform's style and palette as Qt chose them before we changed anything: "System" goes
// back to them. Qt 6.4 has no QStyleHints::colorScheme(), so System cannot follow a desktop's
// light/dark switch by itself; it means whatever the platform theme gives at start-up.
struct Platform {
    QString style;
    QPalette palette;
    bool captured = false;
};

Platform& platform()
{
    static Platform p;
    if (!p.captured) {
        p.style = QApplication::style()->name();
        p.palette = QApplication::palette();
        p.captured = true;
    }
    return p;
}

Theme::Kind s_current = Theme::System;
bool s_overridden = false;
bool s_changed = false; // until something else was applied, System is already in force

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2e), base(0x1e, 0x1e, 0x20), text(0xe8, 0xe8, 0xea);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x2a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa8));
    p.setColor(QPalette::Highlight, QColor(0x3b, 0x82, 0xf6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x55));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

} // namespace

void Theme::apply(Kind kind)
{
    const Platform& sys = platform();
    if (kind == System && !s_changed)
        return;
    s_changed = true;
    if (kind == System) {
        if (QStyle* style = QStyleFactory::create(sys.style))
            QApplication::setStyle(style);
        QApplication::setPalette(sys.palette);
    } else {
        // Fusion draws with the palette alone, so light and dark look the same on every platform.
        QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
        QApplication::setStyle(fusion);
        QApplication::setPalette(kind == Dark ? darkPalette() : fusion->standardPalette());
    }
    s_current = kind;
}

Theme::Kind Theme::current()
{
    return s_current;
}

void Theme::choose(Kind kind)
{
    QSettings().setValue(kKey, name(kind));
    s_overridden = false;
    apply(kind);
}

void Theme::overrideForThisRun(Kind kind)
{
    s_overridden = true;
    apply(kind);
}

void Theme::applyStored()
{
    if (!s_overridden)
        apply(stored());
}

Theme::Kind Theme::stored()
{
    const QString value = QSettings().value(kKey).toString();
    for (Kind kind : {System, Light, Dark}) {
        if (value == name(kind))
            return kind;
    }
    return System;
}

QString Theme::name(Kind kind)
{
    switch (kind) {
    case Light:
        return QStringLiteral("light");
    case Dark:
        return QStringLiteral("dark");
    case System:
        break;
    }
    return QStringLiteral("system");
}

} // namespace ts::ui
