#include "analysis/ScanFindings.h"

#include "base/Format.h"

#include <QStringList>

#include <cmath>

namespace ts {
namespace {

std::optional<std::uint64_t> byteOffset(const TensorStats& stats, const TensorLocation& location,
                                        std::optional<std::uint64_t> index)
{
    if (!index || !location.source)
        return std::nullopt;
    return location.offset + *index * static_cast<std::uint64_t>(dtypeBits(stats.dtype)) / 8;
}

QString indexList(const std::vector<std::uint64_t>& indices, std::uint64_t total)
{
    QStringList parts;
    for (std::uint64_t i : indices)
        parts << QString::number(i);
    QString text = parts.join(QStringLiteral(", "));
    if (total > indices.size())
        text += QStringLiteral(", …");
    return text;
}

QString number(double x)
{
    return QString::number(x, 'g', 6);
}

} // namespace

std::optional<double> ScanFindings::outlierScore(const ValueStats& s)
{
    if (!s.absmaxIndex)
        return std::nullopt;
    return leaveOneOutScore(s, s.max >= -s.min ? s.max : s.min);
}

bool ScanFindings::isOutlier(const ValueStats& stats, double v)
{
    const auto z = leaveOneOutScore(stats, v);
    return z && *z > kOutlierZ;
}

std::optional<double> ScanFindings::leaveOneOutScore(const ValueStats& s, double v)
{
    if (s.finite < kOutlierMinElements)
        return std::nullopt;
    const double n = static_cast<double>(s.finite);
    // Remove v from (n, mean, M2): the reverse of Welford's update.
    const double meanRest = (n * s.mean - v) / (n - 1);
    const double m2Rest = s.m2 - (v - s.mean) * (v - meanRest);
    const double stdRest = std::sqrt(std::max(0.0, m2Rest) / (n - 1));
    const double distance = std::fabs(v - meanRest);
    if (distance == 0)
        return 0.0;
    // When the other elements are (numerically) all equal there is no spread to measure against:
    // a bias that is zero but for one entry is common in trained models and not an outlier.
    if (stdRest <= std::fabs(meanRest) * 1e-12 || stdRest == 0)
        return std::nullopt;
    return distance / stdRest;
}

std::vector<Diagnostic> ScanFindings::of(const TensorStats& t, const TensorLocation& location)
{
    std::vector<Diagnostic> out;
    const ValueStats& v = t.values;
    const QString name = t.name;
    if (v.nan > 0) {
        out.push_back(
            {QStringLiteral("NanValues"), Severity::Error,
             QStringLiteral("Tensor \"%1\" has %2 at flat %3 %4.")
                 .arg(name, formatNoun(v.nan, "NaN value", "NaN values"),
                      QLatin1String(v.nan == 1 ? "index" : "indices"), indexList(v.nanIndices, v.nan)),
             name, byteOffset(t, location, v.firstNan())});
    }
    if (v.posinf + v.neginf > 0) {
        out.push_back({QStringLiteral("InfValues"), Severity::Error,
                       QStringLiteral("Tensor \"%1\" has %2 (%3 +Inf, %4 -Inf) at flat %5 %6.")
                           .arg(name, formatNoun(v.posinf + v.neginf, "infinite value", "infinite values"),
                                formatGrouped(v.posinf), formatGrouped(v.neginf),
                                QLatin1String(v.posinf + v.neginf == 1 ? "index" : "indices"),
                                indexList(v.infIndices, v.posinf + v.neginf)),
                       name, byteOffset(t, location, v.firstInf())});
    }
    if (t.nanInfOnly) // nothing else was computed
        return out;
    if (t.elements > 0 && v.zeros == t.elements) {
        out.push_back({QStringLiteral("AllZero"), Severity::Warning,
                       QStringLiteral("Tensor \"%1\" is all zeros (%2).")
                           .arg(name, formatNoun(t.elements, "element", "elements")),
                       name, std::nullopt});
    } else if (t.elements > 1 && v.finite == t.elements && v.min == v.max) {
        out.push_back({QStringLiteral("Constant"), Severity::Info,
                       QStringLiteral("Tensor \"%1\" holds the same value %2 in all %3 elements.")
                           .arg(name, number(v.min), formatGrouped(t.elements)),
                       name, std::nullopt});
    }
    if (t.nonBinaryBool > 0) {
        out.push_back(
            {QStringLiteral("NonBinaryBool"), Severity::Warning,
             QStringLiteral("BOOL tensor \"%1\" has %2 other than 0 and 1 (first at flat index %3).")
                 .arg(name, formatNoun(t.nonBinaryBool, "byte", "bytes"),
                      QString::number(*t.firstNonBinaryBool)),
             name, byteOffset(t, location, t.firstNonBinaryBool)});
    }
    const auto z = outlierScore(v);
    if (z && *z > kOutlierZ) {
        const double value = v.max >= -v.min ? v.max : v.min;
        const QString how = QStringLiteral("%1 standard deviations from the rest").arg(number(*z));
        out.push_back({QStringLiteral("ExtremeOutlier"), Severity::Warning,
                       QStringLiteral("Tensor \"%1\" has an extreme value %2 at flat index %3, %4.")
                           .arg(name, number(value), QString::number(*v.absmaxIndex), how),
                       name, byteOffset(t, location, v.absmaxIndex)});
    }
    if (v.f16Overflow > 0 && t.dtype != Dtype::F16) {
        out.push_back({QStringLiteral("F16Overflow"), Severity::Info,
                       QStringLiteral("Tensor \"%1\" has %2 beyond the F16 range (|x| > 65504, largest %3); "
                                      "converting it to F16 would make %4 infinite.")
                           .arg(name, formatNoun(v.f16Overflow, "value", "values"), number(v.absmax),
                                QLatin1String(v.f16Overflow == 1 ? "it" : "them")),
                       name, std::nullopt});
    }
    return out;
}

} // namespace ts
