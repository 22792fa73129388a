#include "convert/ByteSize.h"

#include <QRegularExpression>

#include <cmath>

namespace ts {

std::optional<std::uint64_t> parseByteSize(const QString& text)
{
    static const QRegularExpression re(
        QStringLiteral("\\A\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kmgtp]?)(i?)(b?)\\s*\\z"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QString unit = m.captured(2).toLower();
    const bool binary = !m.captured(3).isEmpty();
    if (binary && unit.isEmpty())
        return std::nullopt; // "5i" is not a unit
    const double base = binary ? 1024.0 : 1000.0;
    const int power = unit.isEmpty() ? 0 : static_cast<int>(QStringLiteral("kmgtp").indexOf(unit)) + 1;
    const double value = m.captured(1).toDouble() * std::pow(base, power);
    if (!(value >= 1.0) || value > 1.8e19)
        return std::nullopt;
    return static_cast<std::uint64_t>(std::floor(value));
}

} // namespace ts
