#pragma once

#include <QLocale>
#include <QStringList>

class QCoreApplication;

namespace ts::ui {

// Puts the window into the user's language: Qt's own catalogue (standard dialogs, buttons, the
// context menus of text fields) from Qt's translations directory, and Tensorscope's catalogue
// compiled into the program (resources/translations, embedded under :/i18n by ui/CMakeLists.txt).
// Either may be missing for a language; what is missing stays English.
class Translations final {
public:
    // Installs the translators on app (which owns them). Call once, after the application object
    // exists and before any widget is created: texts are looked up when widgets are built.
    // Returns the catalogue files that were loaded, for tests and diagnostics.
    static QStringList install(QCoreApplication& app, const QLocale& locale = QLocale());

    // Where Tensorscope's own compiled catalogues live (tensorscope_<lang>.qm).
    static QString catalogueDirectory();
};

} // namespace ts::ui
