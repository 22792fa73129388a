#pragma once

#include <QRegularExpression>
#include <QString>

namespace ts {

// Shell-style glob over whole tensor names: '*' matches any run of characters (dots and slashes
// included), '?' one character, [abc] / [!abc] a class. Everything else is literal.
QRegularExpression globToRegularExpression(const QString& glob, Qt::CaseSensitivity cs = Qt::CaseSensitive);

} // namespace ts
