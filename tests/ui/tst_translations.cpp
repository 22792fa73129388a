// The window in the user's language: Translations::install() loads Qt's catalogue from Qt's
// translations directory (Debian: qt6-translations-l10n) and Tensorscope's own, compiled from
// resources/translations/*.ts and embedded by the build. Checked on what a German user sees: the
// menu bar of a real MainWindow and the text of a standard button.

#include "window/MainWindow.h"
#include "window/Translations.h"

#include <QApplication>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QTest>
#include <QTranslator>

using namespace ts::ui;

namespace {

QStringList menuTitles(MainWindow& window)
{
    QStringList titles;
    const QList<QAction*> actions = window.menuBar()->actions();
    for (QAction* a : actions)
        titles << a->text();
    return titles;
}

// What QDialogButtonBox and QMessageBox put on their Cancel button.
QString cancelText()
{
    return QCoreApplication::translate("QPlatformTheme", "Cancel");
}

bool haveQtCatalogue(const QString& lang)
{
    return QFileInfo::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_") +
                             lang + QStringLiteral(".qm"));
}

} // namespace

class TstTranslations : public QObject {
    Q_OBJECT

private slots:
    void cleanup()
    {
        // The translators belong to the application; deleting one uninstalls it.
        qDeleteAll(qApp->findChildren<QTranslator*>(Qt::FindDirectChildrenOnly));
    }

    void englishIsTheSource()
    {
        const QStringList loaded =
            Translations::install(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
        for (const QString& file : loaded)
            QVERIFY2(!file.contains(QLatin1String("tensorscope_")), qPrintable(file));
        MainWindow window;
        QCOMPARE(menuTitles(window).value(0), QStringLiteral("&File"));
        QCOMPARE(menuTitles(window).constLast(), QStringLiteral("&Help"));
    }

    void germanMenusAndQtDialogs()
    {
        if (!haveQtCatalogue(QStringLiteral("de")))
            QSKIP("qtbase_de.qm not installed (qt6-translations-l10n)");
        // de_AT has no catalogue of its own: the loader must fall back to de.
        const QStringList loaded = Translations::install(*qApp, QLocale(QLocale::German, QLocale::Austria));
        QCOMPARE(loaded.size(), 2);
        QCOMPARE(QFileInfo(loaded.value(0)).fileName(), QStringLiteral("qtbase_de.qm"));
        QCOMPARE(loaded.value(1), Translations::catalogueDirectory() + QStringLiteral("/tensorscope_de.qm"));

        QCOMPARE(cancelText(), QStringLiteral("Abbrechen"));
        MainWindow window;
        const QStringList titles = menuTitles(window);
        QCOMPARE(titles.value(0), QStringLiteral("&Datei"));
        QCOMPARE(titles.constLast(), QStringLiteral("&Hilfe"));
    }

    // A language with Qt's catalogue but none of ours: Qt's dialogs are translated, our texts stay
    // English rather than failing or showing nothing.
    void frenchHasOnlyQtsCatalogue()
    {
        if (!haveQtCatalogue(QStringLiteral("fr")))
            QSKIP("qtbase_fr.qm not installed (qt6-translations-l10n)");
        const QStringList loaded = Translations::install(*qApp, QLocale(QLocale::French, QLocale::France));
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(QFileInfo(loaded.value(0)).fileName(), QStringLiteral("qtbase_fr.qm"));
        QCOMPARE(cancelText(), QStringLiteral("Annuler"));
        MainWindow window;
        QCOMPARE(menuTitles(window).value(0), QStringLiteral("&File"));
    }
};

QTEST_MAIN(TstTranslations)
#include "tst_translations.moc"
