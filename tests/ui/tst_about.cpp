// Help > About states the licence a user receives the program under: GPL-3.0-or-later, because it
// links QCustomPlot (GPL), with Qt under the LGPL. Driven through the menu as a user would, in
// English and in German (the licence name must survive translation).

#include "window/MainWindow.h"
#include "window/Translations.h"

#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTest>
#include <QTimer>
#include <QTranslator>

using namespace ts::ui;

namespace {

QAction* findAction(QMenuBar* bar, const QString& text)
{
    const QList<QAction*> menus = bar->actions();
    for (QAction* m : menus) {
        if (!m->menu())
            continue;
        const QList<QAction*> items = m->menu()->actions();
        for (QAction* a : items)
            if (a->text() == text)
                return a;
    }
    return nullptr;
}

// Triggers the action and returns the text of the message box it opens (closing it again).
QString aboutText(MainWindow& window, const QString& actionText)
{
    QAction* about = findAction(window.menuBar(), actionText);
    if (!about)
        return QStringLiteral("<no action %1>").arg(actionText);
    QString text;
    QTimer::singleShot(0, &window, [&text] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            text = box->text();
            if (qEnvironmentVariableIsSet("TS_ABOUT_SHOT"))
                box->grab().save(qEnvironmentVariable("TS_ABOUT_SHOT"));
            box->accept();
        }
    });
    about->trigger(); // modal: returns once the box is closed
    return text;
}

} // namespace

class TstAbout : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { qDeleteAll(qApp->findChildren<QTranslator*>(Qt::FindDirectChildrenOnly)); }

    void statesTheLicence()
    {
        MainWindow window;
        const QString text = aboutText(window, QStringLiteral("&About Tensorscope"));
        QVERIFY2(text.contains(QLatin1String("GPL-3.0-or-later")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("QCustomPlot (GPL-3.0)")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("LGPL")), qPrintable(text));
        QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
    }

    void statesTheLicenceInGerman()
    {
        Translations::install(*qApp, QLocale(QLocale::German, QLocale::Germany));
        MainWindow window;
        const QString text = aboutText(window, QStringLiteral("&Über Tensorscope"));
        QVERIFY2(text.contains(QLatin1String("freie Software")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("GPL-3.0-or-later")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("QCustomPlot (GPL-3.0)")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("LGPL")), qPrintable(text));
    }
};

QTEST_MAIN(TstAbout)
#include "tst_about.moc"
