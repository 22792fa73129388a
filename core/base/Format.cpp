#include "base/Format.h"

#include <QStringList>

#include <algorithm>

namespace ts {

QString formatCount(std::uint64_t n)
{
    static const char* const units[] = {"", "K", "M", "B", "T", "Q"};
    double v = static_cast<double>(n);
    int unit = 0;
    while (v >= 999.995 && unit < 5) {
        v /= 1000.0;
        ++unit;
    }
    if (unit == 0)
        return QString::number(n);
    QString text = QString::number(v, 'f', v < 10 ? 2 : v < 100 ? 1 : 0);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QLatin1String(units[unit]);
}

QString formatBytes(std::uint64_t n)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (n < 1024)
        return QStringLiteral("%1 B").arg(n);
    double v = static_cast<double>(n);
    int unit = 0;
    while (v >= 1024.0 && unit < 6) {
        v /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(QString::number(v, 'f',
                                                       v < 10    ? 2
                                                       : v < 100 ? 1
                                                                 : 0),
                                       QLatin1String(units[unit]));
}

QString formatGrouped(std::uint64_t n)
{
    QString digits = QString::number(n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

QString formatNoun(std::uint64_t n, const char* one, const char* many)
{
    return formatGrouped(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

QString formatShape(const Shape& shape)
{
    // The first dims say what kind of tensor it is, the last two are the matrix a view shows.
    constexpr std::size_t kTail = 2;
    const bool elided = shape.size() > kShapeDimsShown;
    const std::size_t head = elided ? kShapeDimsShown - kTail : shape.size();
    QStringList parts;
    parts.reserve(static_cast<qsizetype>(kShapeDimsShown + 1));
    for (std::size_t i = 0; i < head; ++i)
        parts << QString::number(shape[i]);
    if (elided) {
        parts << QStringLiteral("\u2026");
        for (std::size_t i = shape.size() - kTail; i < shape.size(); ++i)
            parts << QString::number(shape[i]);
    }
    QString text = QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    if (elided)
        text += QStringLiteral(" (%1 dims)").arg(formatGrouped(shape.size()));
    return text;
}

QString elideText(const QString& text, qsizetype maxChars)
{
    if (text.size() <= maxChars)
        return text;
    qsizetype cut = std::max<qsizetype>(0, maxChars);
    if (cut > 0 && text.at(cut - 1).isHighSurrogate())
        --cut;
    return text.left(cut) +
           QStringLiteral("\u2026 (%1 more characters)").arg(formatGrouped(text.size() - cut));
}

} // namespace ts
