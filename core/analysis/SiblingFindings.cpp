#include "analysis/SiblingFindings.h"

#include "view/LayerGroups.h"

#include <QMap>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace ts {
namespace {

struct Statistic {
    const char* name;
    double (*of)(const ValueStats&);
};

// mean |x| is not among them: the scan kernels do not accumulate it.
const std::array<Statistic, 3> kStatistics = {{
    {"std", [](const ValueStats& v) { return v.std; }},
    {"abs max", [](const ValueStats& v) { return v.absmax; }},
    {"L2 norm", [](const ValueStats& v) { return v.l2; }},
}};

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

QString number(double x)
{
    return QString::number(x, 'g', 3);
}

QString ratioText(double ratio)
{
    if (ratio >= 1)
        return QStringLiteral("%1x").arg(number(ratio));
    return QStringLiteral("1/%1").arg(number(1 / ratio));
}

struct Candidate {
    double strength = 0; // how far past the thresholds, to keep the strongest statistic per tensor
    Diagnostic diagnostic;
};

} // namespace

std::vector<Diagnostic> SiblingFindings::of(const std::vector<TensorStats>& tensors,
                                            const std::vector<const TensorInfo*>& infos)
{
    std::vector<QString> names;
    names.reserve(tensors.size());
    for (const TensorStats& t : tensors)
        names.push_back(t.name);
    QMap<int, Candidate> strongest; // by tensor index, in tensor order
    for (const LayerFamily& family : layerFamilies(names)) {
        // Siblings are the same tensor in other blocks: same shape and dtype. Compared in place:
        // a hostile header's shapes may hold millions of dimensions.
        auto kindLess = [](const TensorInfo* x, const TensorInfo* y) {
            return x->dtype != y->dtype ? x->dtype < y->dtype : x->shape < y->shape;
        };
        std::map<const TensorInfo*, std::vector<int>, decltype(kindLess)> byKind(kindLess);
        for (const LayerMember& m : family.members) {
            const TensorStats& t = tensors[static_cast<std::size_t>(m.tensor)];
            if (t.nanInfOnly || t.values.finite == 0 || t.real || t.elements < kMinElements)
                continue;
            byKind[infos[static_cast<std::size_t>(m.tensor)]].push_back(m.tensor);
        }
        for (const auto& [kind, group] : byKind) {
            if (group.size() < kMinGroup)
                continue;
            for (const Statistic& statistic : kStatistics) {
                // Compared as logarithms: a block scaled 100x and one scaled 1/100 are equally far
                // from their siblings, and a family whose spread drifts 1.5x with depth has a
                // scale of its own that a linear MAD would let a downscaled block hide inside.
                std::vector<double> logs;
                for (int i : group) {
                    const double v = statistic.of(tensors[static_cast<std::size_t>(i)].values);
                    logs.push_back(v > 0 ? std::log(v) : std::numeric_limits<double>::quiet_NaN());
                }
                std::vector<double> usable;
                for (double l : logs) {
                    if (std::isfinite(l))
                        usable.push_back(l);
                }
                if (usable.size() < kMinGroup)
                    continue;
                const double mid = median(usable);
                std::vector<double> deviations;
                for (double l : usable)
                    deviations.push_back(std::fabs(l - mid));
                // When more than half the siblings agree exactly the MAD is 0; the floor keeps the
                // z-score finite and leaves the decision to the ratio.
                const double scale = std::max(1.4826 * median(deviations), 1e-6);
                for (std::size_t k = 0; k < group.size(); ++k) {
                    if (!std::isfinite(logs[k]))
                        continue;
                    const double z = std::fabs(logs[k] - mid) / scale;
                    const double ratio = std::exp(logs[k] - mid);
                    if (!(z > kRobustZ) || !(ratio >= kMinRatio || ratio <= 1 / kMinRatio))
                        continue;
                    const TensorStats& t = tensors[static_cast<std::size_t>(group[k])];
                    if (t.values.zeros == t.elements)
                        continue; // AllZero says it already
                    const double strength = std::fabs(logs[k] - mid);
                    Candidate& c = strongest[group[k]];
                    if (c.strength >= strength)
                        continue;
                    c.strength = strength;
                    c.diagnostic = {QStringLiteral("LayerOutlier"), Severity::Warning,
                                    QStringLiteral("%1: %2 %3 is %4 the median %5 of the %6 blocks of %7.")
                                        .arg(t.name, QString::fromLatin1(statistic.name),
                                             number(std::exp(logs[k])), ratioText(ratio),
                                             number(std::exp(mid)), QString::number(usable.size()),
                                             family.pattern),
                                    t.name, std::nullopt};
                }
            }
        }
    }
    std::vector<Diagnostic> out;
    for (Candidate& c : strongest)
        out.push_back(std::move(c.diagnostic));
    return out;
}

} // namespace ts
