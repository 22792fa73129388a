#include "hub/JsValues.h"

#include <cmath>

namespace ts::js {

bool truthy(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool();
    case QJsonValue::Double: {
        const double d = value.toDouble();
        return d != 0 && !std::isnan(d);
    }
    case QJsonValue::String:
        return !value.toString().isEmpty();
    case QJsonValue::Array:
    case QJsonValue::Object:
        return true;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return false;
}

std::optional<QString> lowerString(const QJsonValue& value)
{
    if (!value.isString())
        return std::nullopt;
    return value.toString().toLower();
}

std::optional<double> number(const QJsonValue& value)
{
    if (!value.isDouble())
        return std::nullopt;
    return value.toDouble();
}

std::optional<double> parseInt(const QString& text)
{
    qsizetype i = 0;
    // StrWhiteSpaceChar: white space and line terminators, which QChar::isSpace covers, plus the BOM.
    while (i < text.size() && (text[i].isSpace() || text[i] == QChar(0xFEFF)))
        ++i;
    double sign = 1;
    if (i < text.size() && (text[i] == QLatin1Char('+') || text[i] == QLatin1Char('-'))) {
        sign = text[i] == QLatin1Char('-') ? -1 : 1;
        ++i;
    }
    int radix = 10;
    if (i + 1 < text.size() && text[i] == QLatin1Char('0') &&
        (text[i + 1] == QLatin1Char('x') || text[i + 1] == QLatin1Char('X'))) {
        radix = 16;
        i += 2;
    }
    double value = 0;
    bool any = false;
    for (; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        int digit = -1;
        if (c >= u'0' && c <= u'9')
            digit = c - u'0';
        else if (radix == 16 && c >= u'a' && c <= u'f')
            digit = c - u'a' + 10;
        else if (radix == 16 && c >= u'A' && c <= u'F')
            digit = c - u'A' + 10;
        if (digit < 0)
            break;
        any = true;
        value = std::min(value * radix + digit, 1e300);
    }
    if (!any)
        return std::nullopt;
    return sign * value;
}

} // namespace ts::js
