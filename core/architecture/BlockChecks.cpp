#include "architecture/BlockChecks.h"

namespace ts {
namespace {

QString listNumbers(const std::vector<int>& numbers)
{
    QStringList parts;
    for (std::size_t i = 0; i < numbers.size() && i < 12; ++i)
        parts << QString::number(numbers[i]);
    if (numbers.size() > 12)
        parts << QStringLiteral("and %1 more").arg(numbers.size() - 12);
    return parts.join(QStringLiteral(", "));
}

} // namespace

std::vector<Diagnostic> BlockChecks::check(const NameShapes& names, const BlockRun& run,
                                           const QStringList& tails)
{
    std::vector<Diagnostic> findings;
    if (run.container.isEmpty())
        return findings;
    const std::vector<int> gaps = run.missing();
    if (!gaps.empty()) {
        Diagnostic d;
        d.code = QStringLiteral("MissingBlock");
        d.severity = Severity::Error;
        d.message =
            gaps.size() == 1
                ? QStringLiteral("%1%2 is missing: the blocks run from 0 to %3 and this one has no tensors")
                      .arg(run.container)
                      .arg(gaps.front())
                      .arg(run.last())
                : QStringLiteral("%1 blocks of %2# are missing (%3): the blocks run from 0 to %4")
                      .arg(gaps.size())
                      .arg(run.container, listNumbers(gaps))
                      .arg(run.last());
        findings.push_back(std::move(d));
    }
    for (const QString& tail : tails) {
        const std::vector<int> with = names.blocksWith(run.container, tail);
        // Only a tail most blocks have is expected of all of them.
        if (with.empty() || with.size() == run.blocks.size() || with.size() * 2 < run.blocks.size())
            continue;
        std::vector<int> without;
        std::size_t j = 0;
        for (int b : run.blocks) {
            while (j < with.size() && with[j] < b)
                ++j;
            if (j >= with.size() || with[j] != b)
                without.push_back(b);
        }
        Diagnostic d;
        d.code = QStringLiteral("IncompleteBlock");
        d.severity = Severity::Error;
        d.message = QStringLiteral("%1 of %2 blocks under %3 lack %4, which the other %5 have (block %6)")
                        .arg(without.size())
                        .arg(run.blocks.size())
                        .arg(run.container, tail)
                        .arg(with.size())
                        .arg(listNumbers(without));
        d.tensor = run.container + QString::number(without.front()) + QLatin1Char('.') + tail;
        findings.push_back(std::move(d));
    }
    return findings;
}

} // namespace ts
