// The window in the user's language: Translations::install() loads Qt's catalogue from Qt's
// translations directory (Debian: qt6-translations-l10n) and Tensorscope's own, compiled from
// resources/translations/*.ts and embedded by the build. Checked on what a German user sees: the
// menu bar of a real MainWindow and the text of a standard button.

#include "window/MainWindow.h"
#include "window/Translations.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

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

// One <message> of a .ts catalogue.
struct CatalogueEntry {
    QString context;
    QString source;
    QStringList translations; // one, or the plural forms
    bool finished = true;
};

QList<CatalogueEntry> readCatalogue(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<CatalogueEntry> entries;
    QXmlStreamReader xml(&file);
    QString context;
    CatalogueEntry entry;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            entry = CatalogueEntry{context, {}, {}, true};
        } else if (name == QLatin1String("source")) {
            entry.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            entry.finished = type.isEmpty();
            // Plural forms are child elements; readElementText would refuse them.
            QString text;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                    entry.translations << xml.readElementText();
                else if (xml.isCharacters())
                    text += xml.text();
                else if (xml.isEndElement() && xml.name() == QLatin1String("translation"))
                    break;
            }
            if (entry.translations.isEmpty())
                entry.translations << text;
            entries << entry;
        }
    }
    if (xml.hasError())
        qWarning("%s: %s at line %lld", qPrintable(path), qPrintable(xml.errorString()), xml.lineNumber());
    return xml.hasError() ? QList<CatalogueEntry>{} : entries;
}

// What a translation must keep of its source: every argument (%1, %L2, %n) as often as the source
// has it, the menu accelerator (one '&', not "&&" or an entity such as &middot;), and the leading
// and trailing spaces and line breaks that code glues to other text.
QString shapeOf(const QString& text)
{
    static const QRegularExpression argument(QStringLiteral("%L?[0-9]+|%n"));
    static const QRegularExpression accelerator(QStringLiteral("&(?!&|[a-z]+;)"));
    QStringList args;
    for (auto it = argument.globalMatch(text); it.hasNext();)
        args << it.next().captured();
    args.sort();
    QString plain = text;
    plain.remove(QStringLiteral("&&"));
    const qsizetype lead =
        text.size() - QString(text).remove(QRegularExpression(QStringLiteral("^\\s+"))).size();
    const qsizetype trail =
        text.size() - QString(text).remove(QRegularExpression(QStringLiteral("\\s+$"))).size();
    // One multi-argument arg(): chained calls would substitute the "%1" of the joined list.
    return QStringLiteral("args %1; accelerators %2; lines %3; spaces %4/%5")
        .arg(args.join(QLatin1Char(',')), QString::number(plain.count(accelerator)),
             QString::number(text.count(QLatin1Char('\n'))), QString::number(lead), QString::number(trail));
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

    // Every text of every catalogue translated, and translated without losing what the code
    // fills in or glues on: a dropped %2 shows a raw "%2" in the window, a dropped accelerator
    // leaves a menu without its key, a missing leading space runs two words together.
    void cataloguesAreCompleteAndKeepArguments()
    {
        const QDir dir(QStringLiteral(TS_TRANSLATIONS_DIR));
        const QStringList files = dir.entryList({QStringLiteral("tensorscope_*.ts")}, QDir::Files);
        QVERIFY2(!files.isEmpty(), qPrintable(dir.path()));
        for (const QString& name : files) {
            const QList<CatalogueEntry> entries = readCatalogue(dir.filePath(name));
            QVERIFY2(entries.size() > 500, qPrintable(name)); // the window has about 765 texts
            QStringList problems;
            for (const CatalogueEntry& e : entries) {
                const QString where = QStringLiteral("%1 %2: \"%3\"").arg(name, e.context, e.source);
                if (!e.finished) {
                    problems << where + QStringLiteral(" is not translated");
                    continue;
                }
                for (const QString& t : e.translations) {
                    if (t.isEmpty() || shapeOf(t) != shapeOf(e.source))
                        problems << where + QStringLiteral(" -> \"%1\" (%2, source %3)")
                                                .arg(t, shapeOf(t), shapeOf(e.source));
                }
            }
            QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 20).join(QLatin1Char('\n'))));
        }
    }

    // lupdate (Qt 6.4) reads a \\u escape followed by another hex digit as one longer number, so
    // tr("1\\u201399%") is catalogued as "1\u1399%" and never matches the string the program
    // looks up: that text stays English in every language. Such literals are split after the
    // escape ("1\\u2013" "99%").
    void noEscapeRunsIntoAHexDigit()
    {
        static const QRegularExpression runOn(QStringLiteral("\\\\u[0-9A-Fa-f]{4}[0-9A-Fa-f]"));
        QStringList hits;
        for (const char* folder : {"ui", "app"}) {
            QDirIterator it(QStringLiteral(TS_SOURCE_DIR "/") + QLatin1String(folder),
                            {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(f.readAll());
                if (const auto m = runOn.match(text); m.hasMatch())
                    hits << QStringLiteral("%1: %2").arg(path, m.captured());
            }
        }
        QVERIFY2(hits.isEmpty(), qPrintable(hits.join(QLatin1Char('\n'))));
    }

    // The compiled German catalogue reaches past the menus: texts from the panels, one of them a
    // literal with an escape that lupdate used to mis-key, one a plural.
    void germanReachesThePanels()
    {
        QTranslator german;
        QVERIFY(german.load(Translations::catalogueDirectory() + QStringLiteral("/tensorscope_de.qm")));
        QCOMPARE(german.translate("ts::ui::ScanView", "Scan Model"), QStringLiteral("Modell scannen"));
        QCOMPARE(german.translate("ts::ui::HeatmapPanel", "Clip to 1\u2013"
                                                          "99%"),
                 QStringLiteral("Auf 1\u2013"
                                "99 % begrenzen"));
        QCOMPARE(german.translate("ts::ui::PickleBanner", "%n more", nullptr, 3),
                 QStringLiteral("%n weitere"));
        QCOMPARE(german.translate("ts::ui::PickleBanner", "%n more", nullptr, 1),
                 QStringLiteral("%n weiterer"));
    }
};

QTEST_MAIN(TstTranslations)
#include "tst_translations.moc"
