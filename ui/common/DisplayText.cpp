#include "common/DisplayText.h"

#include "base/Format.h"

namespace ts::ui {

QString itemText(const QString& text)
{
    QString line = elideText(text, kItemTextChars);
    line.replace(QLatin1Char('\n'), QChar(0x23CE)).replace(QLatin1Char('\t'), QLatin1Char(' '));
    return line;
}

QString toolTipText(const QString& text)
{
    return elideText(text, kToolTipChars);
}

} // namespace ts::ui
