#include "analysis/SiblingScores.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ts {
namespace {

double median(std::vector<double> values)
{
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return lower + (upper - lower) / 2;
}

bool comparable(const TensorStats& t)
{
    return !t.nanInfOnly && t.values.finite > 0 && !t.real && t.elements >= SiblingScores::kMinElements;
}

bool isCount(SiblingStatistic s)
{
    return s == SiblingStatistic::NanCount || s == SiblingStatistic::InfCount;
}

// Scores the members `at` of one group (same shape and dtype) into `out`.
void scoreGroup(const std::vector<std::size_t>& at, const std::vector<int>& tensorOf,
                SiblingStatistic statistic, const std::vector<TensorStats>& tensors,
                std::vector<SiblingScore>& out)
{
    // Compared as logarithms: a block scaled 100x and one scaled 1/100 are equally far from their
    // siblings, and a family whose spread drifts 1.5x with depth has a scale of its own that a
    // linear MAD would let a downscaled block hide inside. The mean crosses zero: linear.
    const bool logScale = statistic != SiblingStatistic::Mean;
    std::vector<double> points(at.size(), SiblingScore::kNone);
    std::vector<double> usable;
    for (std::size_t k = 0; k < at.size(); ++k) {
        const double v = out[at[k]].value;
        const double p = logScale ? (v > 0 ? std::log(v) : SiblingScore::kNone) : v;
        if (std::isfinite(p)) {
            points[k] = p;
            usable.push_back(p);
        }
    }
    if (usable.size() < SiblingScores::kMinShownGroup)
        return;
    const double mid = median(usable);
    std::vector<double> deviations;
    deviations.reserve(usable.size());
    for (double p : usable)
        deviations.push_back(std::fabs(p - mid));
    // When more than half the siblings agree exactly the MAD is 0; the floor keeps the z-score
    // finite and leaves the decision to the ratio.
    const double floor = logScale ? 1e-6 : std::max(std::fabs(mid) * 1e-6, 1e-30);
    const double scale = std::max(1.4826 * median(deviations), floor);
    for (std::size_t k = 0; k < at.size(); ++k) {
        SiblingScore& s = out[at[k]];
        s.median = logScale ? std::exp(mid) : mid;
        s.group = usable.size();
        if (!std::isfinite(points[k]))
            continue;
        s.z = (points[k] - mid) / scale;
        if (!logScale || usable.size() < SiblingScores::kMinGroup)
            continue;
        const double ratio = std::exp(points[k] - mid);
        const TensorStats& t = tensors[static_cast<std::size_t>(tensorOf[k])];
        // An all-zero tensor has no log; AllZero says it already.
        s.outlier = std::fabs(s.z) > SiblingScores::kRobustZ &&
                    (ratio >= SiblingScores::kMinRatio || ratio <= 1 / SiblingScores::kMinRatio) &&
                    t.values.zeros != t.elements;
    }
}

} // namespace

QString SiblingScores::ratioText(double ratio)
{
    if (ratio >= 1)
        return QStringLiteral("%1x").arg(QString::number(ratio, 'g', 3));
    return QStringLiteral("1/%1").arg(QString::number(1 / ratio, 'g', 3));
}

double SiblingScores::valueOf(SiblingStatistic statistic, const ValueStats& v)
{
    switch (statistic) {
    case SiblingStatistic::Std:
        return v.std;
    case SiblingStatistic::AbsMax:
        return v.absmax;
    case SiblingStatistic::L2:
        return v.l2;
    case SiblingStatistic::Mean:
        return v.mean;
    case SiblingStatistic::NanCount:
        return static_cast<double>(v.nan);
    case SiblingStatistic::InfCount:
        return static_cast<double>(v.posinf + v.neginf);
    }
    return SiblingScore::kNone;
}

QString SiblingScores::name(SiblingStatistic statistic)
{
    switch (statistic) {
    case SiblingStatistic::Std:
        return QStringLiteral("std");
    case SiblingStatistic::AbsMax:
        return QStringLiteral("abs max");
    case SiblingStatistic::L2:
        return QStringLiteral("L2 norm");
    case SiblingStatistic::Mean:
        return QStringLiteral("mean");
    case SiblingStatistic::NanCount:
        return QStringLiteral("NaN count");
    case SiblingStatistic::InfCount:
        return QStringLiteral("Inf count");
    }
    return {};
}

std::vector<SiblingScore> SiblingScores::of(const LayerFamily& family, SiblingStatistic statistic,
                                            const std::vector<TensorStats>& tensors,
                                            const std::vector<const TensorInfo*>& infos)
{
    std::vector<SiblingScore> out(family.members.size());
    // Siblings are the same tensor in other blocks: same shape and dtype. Compared in place: a
    // hostile header's shapes may hold millions of dimensions.
    auto kindLess = [](const TensorInfo* x, const TensorInfo* y) {
        return x->dtype != y->dtype ? x->dtype < y->dtype : x->shape < y->shape;
    };
    struct Group {
        std::vector<std::size_t> at; // positions in the family
        std::vector<int> tensor;     // the tensors there
    };
    std::map<const TensorInfo*, Group, decltype(kindLess)> byKind(kindLess);
    for (std::size_t k = 0; k < family.members.size(); ++k) {
        const int index = family.members[k].tensor;
        if (index < 0 || static_cast<std::size_t>(index) >= tensors.size())
            continue;
        const TensorStats& t = tensors[static_cast<std::size_t>(index)];
        if (isCount(statistic)) {
            out[k].value = valueOf(statistic, t.values);
            out[k].outlier = out[k].value > 0;
            continue;
        }
        if (!t.nanInfOnly)
            out[k].value = valueOf(statistic, t.values);
        if (!comparable(t) || static_cast<std::size_t>(index) >= infos.size() ||
            !infos[static_cast<std::size_t>(index)])
            continue;
        Group& g = byKind[infos[static_cast<std::size_t>(index)]];
        g.at.push_back(k);
        g.tensor.push_back(index);
    }
    for (const auto& [kind, group] : byKind)
        scoreGroup(group.at, group.tensor, statistic, tensors, out);
    return out;
}

} // namespace ts
