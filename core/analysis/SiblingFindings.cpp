#include "analysis/SiblingFindings.h"

#include "analysis/SiblingScores.h"
#include "view/LayerGroups.h"

#include <QMap>

#include <cmath>

namespace ts {
namespace {

QString number(double x)
{
    return QString::number(x, 'g', 3);
}

struct Candidate {
    double strength = 0; // |log(value / median)|, to keep the strongest statistic per tensor
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
        for (const SiblingStatistic statistic :
             {SiblingStatistic::Std, SiblingStatistic::AbsMax, SiblingStatistic::L2}) {
            const std::vector<SiblingScore> scores = SiblingScores::of(family, statistic, tensors, infos);
            for (std::size_t k = 0; k < scores.size(); ++k) {
                const SiblingScore& s = scores[k];
                if (!s.outlier)
                    continue;
                const int index = family.members[k].tensor;
                const double ratio = s.value / s.median;
                const double strength = std::fabs(std::log(ratio));
                Candidate& c = strongest[index];
                if (c.strength >= strength)
                    continue;
                const TensorStats& t = tensors[static_cast<std::size_t>(index)];
                c.strength = strength;
                c.diagnostic = {QStringLiteral("LayerOutlier"), Severity::Warning,
                                QStringLiteral("%1: %2 %3 is %4 the median %5 of the %6 blocks of %7.")
                                    .arg(t.name, SiblingScores::name(statistic), number(s.value),
                                         SiblingScores::ratioText(ratio), number(s.median),
                                         QString::number(s.group), family.pattern),
                                t.name, std::nullopt};
            }
        }
    }
    std::vector<Diagnostic> out;
    for (Candidate& c : strongest)
        out.push_back(std::move(c.diagnostic));
    return out;
}

} // namespace ts
