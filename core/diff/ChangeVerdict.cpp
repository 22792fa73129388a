#include "diff/ChangeVerdict.h"

#include "base/Format.h"
#include "diff/LowRankEstimator.h"

#include <algorithm>
#include <cmath>

namespace ts::diff {
namespace {

// Fewer than this share of values changed is an edit of a few values, not a change of the tensor;
// so are a handful of values of a small tensor (one value of a 64-element bias is 1.6% of it).
constexpr double kSparseShare = 0.01;
constexpr std::uint64_t kSparseFew = 8;
constexpr double kSparseFewShare = 0.125;

QString percent(double share)
{
    const double p = 100 * share;
    if (p >= 99.995 && share < 1) // 99.9999% is not 100%
        return QStringLiteral("%1%").arg(QString::number(std::min(p, 99.9999), 'f', 4));
    if (p > 0 && p < 0.01)
        return QStringLiteral("%1%").arg(QString::number(p, 'g', 2));
    return QStringLiteral("%1%").arg(QString::number(p, 'f', 2));
}

QString number(double v)
{
    return QString::number(v, 'g', 3);
}

// Significand bits a side's values carry: its dtype's for the narrow float formats, what the
// values use for F32 and F64 (a BF16 round trip stored as F32 uses 7), counted on values of at least
// PairSummary::kSmall; -1 for integers.
int precisionOf(Dtype dtype, int usedBits)
{
    switch (dtype) {
    case Dtype::F16:
        return 10;
    case Dtype::BF16:
        return 7;
    case Dtype::F8_E4M3:
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F6_E2M3:
        return 3;
    case Dtype::F8_E5M2:
    case Dtype::F8_E5M2FNUZ:
    case Dtype::F6_E3M2:
        return 2;
    case Dtype::F4:
        return 1;
    case Dtype::F8_E8M0:
        return 0;
    case Dtype::F32: // no significand bit above PairSummary::kSmall: nothing to tell, the dtype's own
        return usedBits > 0 ? usedBits : 23;
    case Dtype::F64:
        return usedBits > 0 ? usedBits : 52;
    default:
        return -1;
    }
}

// One side is the other rounded to `bits` significand bits: every compared value within half a
// unit in the last place of the coarser side (below its smallest normal, half its subnormal step),
// and the other side finer than that.
bool isRounding(const ChangeMetrics& m, Dtype a, Dtype b, int& bits, bool& bRounded)
{
    const int wa = precisionOf(a, m.significandBitsA()), wb = precisionOf(b, m.significandBitsB());
    bits = std::min(wa, wb);
    bRounded = wb <= wa;
    if (m.changed == 0 || bits < 1 || std::max(wa, wb) <= bits)
        return false;
    const double half = std::ldexp(1.0, -(bits + 1)) * (1 + 0x1p-20);
    return (bits <= 3 ? m.maxRelativeF8 : m.maxRelative) <= half;
}

QString nonFiniteText(const ChangeMetrics& m)
{
    QString t;
    if (m.nonFiniteIntroduced > 0)
        t += QStringLiteral("; %1 became NaN or Inf")
                 .arg(formatNoun(m.nonFiniteIntroduced, "value", "values"));
    if (m.nonFiniteRemoved > 0)
        t += QStringLiteral("; %1 NaN or Inf became finite")
                 .arg(formatNoun(m.nonFiniteRemoved, "value", "values"));
    return t;
}

} // namespace

QString changeKindName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Identical:
        return QStringLiteral("identical");
    case ChangeKind::SameValues:
        return QStringLiteral("same-values");
    case ChangeKind::Rounding:
        return QStringLiteral("rounding");
    case ChangeKind::Scaled:
        return QStringLiteral("scaled");
    case ChangeKind::Sparse:
        return QStringLiteral("sparse");
    case ChangeKind::LowRank:
        return QStringLiteral("low-rank");
    case ChangeKind::NoiseLike:
        return QStringLiteral("noise-like");
    case ChangeKind::FullRank:
        return QStringLiteral("full-rank");
    case ChangeKind::Dense:
        return QStringLiteral("dense");
    case ChangeKind::NotCompared:
        return QStringLiteral("not-compared");
    }
    return {};
}

QString precisionText(int bits)
{
    const char* format = nullptr;
    switch (bits) {
    case 52:
        format = "F64";
        break;
    case 23:
        format = "F32";
        break;
    case 10:
        format = "F16";
        break;
    case 7:
        format = "BF16";
        break;
    case 3:
        format = "F8_E4M3";
        break;
    case 2:
        format = "F8_E5M2";
        break;
    case 1:
        format = "F4";
        break;
    default:
        break;
    }
    const QString count = formatNoun(static_cast<std::uint64_t>(bits), "significand bit", "significand bits");
    if (!format)
        return count;
    return QStringLiteral("%1 precision (%2)").arg(QString::fromLatin1(format), count);
}

ChangeVerdict classifyChange(const ChangeMetrics& m, Dtype a, Dtype b,
                             const std::optional<RankEstimate>& rank)
{
    ChangeVerdict v;
    v.nonFinite = m.nonFiniteIntroduced > 0 || m.nonFiniteRemoved > 0;
    const QString tail = nonFiniteText(m);
    if (m.changed == 0) {
        v.kind = ChangeKind::SameValues;
        v.text = a == b ? QStringLiteral("the same values in other bytes")
                        : QStringLiteral("the same values as %1 and as %2").arg(dtypeName(a), dtypeName(b));
        return v;
    }
    int bits = 0;
    bool bRounded = true;
    if (isRounding(m, a, b, bits, bRounded)) {
        v.kind = ChangeKind::Rounding;
        v.roundingBits = bits;
        v.text = QStringLiteral("rounding noise: %1 are %2 rounded to %3, every value within half a unit "
                                "in the last place")
                     .arg(bRounded ? QStringLiteral("B's values") : QStringLiteral("A's values"),
                          bRounded ? QStringLiteral("A's") : QStringLiteral("B's"), precisionText(bits)) +
                 tail;
        return v;
    }
    const double cosine = m.cosine();
    if (std::isfinite(cosine) && m.sumSqA > 0) {
        // The least-squares c in b = c a, and how far b is from it relative to ||b||.
        const double c = (m.sumSqA + m.sumSqB - m.sumSqDiff) / (2 * m.sumSqA);
        const double residual = std::sqrt(std::max(0.0, 2 * (1 - std::fabs(cosine))));
        if (std::fabs(c - 1) > 1e-6 && residual < 1e-4 && residual < 1e-3 * std::fabs(c - 1)) {
            v.kind = ChangeKind::Scaled;
            v.scale = c;
            v.text = QStringLiteral("scaled: B = %1 \u00d7 A").arg(QString::number(c, 'g', 7)) + tail;
            return v;
        }
    }
    if (m.fractionChanged() < kSparseShare ||
        (m.changed <= kSparseFew && m.fractionChanged() < kSparseFewShare)) {
        v.kind = ChangeKind::Sparse;
        v.text = QStringLiteral("sparse edit: %1 of %2 changed")
                     .arg(formatGrouped(m.changed), formatNoun(m.elements, "value", "values")) +
                 tail;
        return v;
    }
    const QString size = QStringLiteral("relative L2 %1").arg(number(m.relativeL2()));
    if (rank) {
        const std::uint64_t smaller = std::min(rank->rows, rank->cols);
        if (rank->rank == 0) {
            v.kind = ChangeKind::NoiseLike;
            v.text =
                QStringLiteral("noise-like: no direction stands above the noise floor (%1)").arg(size) + tail;
        } else if (rank->gap < LowRankEstimator::kGap ||
                   static_cast<std::uint64_t>(rank->rank) * 2 > smaller) {
            v.kind = ChangeKind::FullRank;
            v.text =
                QStringLiteral("full-rank change: its %1 strongest directions (of %2) hold %3 of "
                               "||B \u2212 A||\u00b2, with no drop that would end a low-rank update (%4)")
                    .arg(rank->sketch)
                    .arg(smaller)
                    .arg(percent(rank->capturedSketch))
                    .arg(size) +
                tail;
        } else {
            v.kind = ChangeKind::LowRank;
            v.text = QStringLiteral("rank-%1 update: the top %2 hold %3 of ||B \u2212 A||\u00b2 (%4)")
                         .arg(rank->rank)
                         .arg(formatNoun(static_cast<std::uint64_t>(rank->rank), "singular value",
                                         "singular values"))
                         .arg(percent(rank->captured))
                         .arg(size) +
                     tail;
        }
        return v;
    }
    v.kind = ChangeKind::Dense;
    v.text = QStringLiteral("dense change: %1 of the values changed (%2)")
                 .arg(percent(m.fractionChanged()), size) +
             tail;
    return v;
}

} // namespace ts::diff
