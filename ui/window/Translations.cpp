#include "window/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace ts::ui {

namespace {

// QTranslator::load(QLocale, ...) walks locale.uiLanguages() (de-AT, de, ...) with the usual
// fallbacks, so "de_AT" finds qtbase_de.qm.
bool installOne(QCoreApplication& app, const QLocale& locale, const QString& name, const QString& dir,
                QStringList& loaded)
{
    auto* translator = new QTranslator(&app);
    if (!translator->load(locale, name, QStringLiteral("_"), dir) ||
        !QCoreApplication::installTranslator(translator)) {
        delete translator;
        return false;
    }
    loaded << translator->filePath();
    return true;
}

} // namespace

QString Translations::catalogueDirectory()
{
    return QStringLiteral(":/i18n");
}

QStringList Translations::install(QCoreApplication& app, const QLocale& locale)
{
    QStringList loaded;
    // qtbase, not the qt_ meta-catalogue: everything the window uses (widgets, dialogs, print
    // support, network) is in qtbase, and qt_<lang>.qm would also pull in modules we never load.
    installOne(app, locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath),
               loaded);
    installOne(app, locale, QStringLiteral("tensorscope"), catalogueDirectory(), loaded);
    return loaded;
}

} // namespace ts::ui
