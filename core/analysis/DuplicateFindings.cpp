#include "analysis/DuplicateFindings.h"

#include "base/Format.h"

#include <QStringList>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <tuple>

namespace ts {
namespace {

constexpr std::uint64_t kCompareChunk = 4u << 20;

// The exact part of the statistics: equal for equal bytes whatever the chunking of the scan (the
// mean and M2 are rounded sums, and left out for that reason). The shape is compared in place: a
// hostile header's shapes may hold millions of dimensions.
struct CandidateKey {
    const TensorStats* stats;
    const TensorInfo* info;
    std::uint64_t length;

    auto exact() const
    {
        const ValueStats& v = stats->values;
        return std::make_tuple(static_cast<int>(info->dtype), length, v.count, v.finite, v.nan, v.posinf,
                               v.neginf, v.zeros, stats->nonBinaryBool, std::bit_cast<std::uint64_t>(v.min),
                               std::bit_cast<std::uint64_t>(v.max));
    }
    bool operator<(const CandidateKey& o) const
    {
        const auto a = exact(), b = o.exact();
        if (a != b)
            return a < b;
        return info->shape < o.info->shape;
    }
};

bool isConstant(const TensorStats& t)
{
    const ValueStats& v = t.values;
    return t.elements <= 1 || v.zeros == t.elements || (v.finite == t.elements && v.min == v.max);
}

Result<bool> sameBytes(const TensorLocation& a, const TensorLocation& b, const CancelToken& cancel)
{
    if (a.length != b.length)
        return false;
    if (a.source == b.source && a.offset == b.offset)
        return true;
    std::vector<std::byte> bufA, bufB;
    for (std::uint64_t done = 0; done < a.length; done += kCompareChunk) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, a.source->displayName(),
                             QStringLiteral("The scan was cancelled."));
        const std::uint64_t n = std::min(kCompareChunk, a.length - done);
        // Copies, not views: a copy cannot fault when the file shrinks under the comparison, and
        // duplicates are rare enough that the copy's cost does not matter.
        bufA.resize(n);
        bufB.resize(n);
        if (auto r = a.source->read(a.offset + done, bufA); !r)
            return r.error();
        if (auto r = b.source->read(b.offset + done, bufB); !r)
            return r.error();
        a.source->release(a.offset + done, n);
        b.source->release(b.offset + done, n);
        if (std::memcmp(bufA.data(), bufB.data(), n) != 0)
            return false;
    }
    return true;
}

QString quotedList(const std::vector<QString>& names)
{
    QStringList quoted;
    for (const QString& n : names)
        quoted << QLatin1Char('"') + n + QLatin1Char('"');
    if (quoted.size() == 2)
        return quoted[0] + QStringLiteral(" and ") + quoted[1];
    const QString last = quoted.takeLast();
    return quoted.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

} // namespace

bool DuplicateFindings::isKnownTying(const std::vector<QString>& names)
{
    static const QStringList kEmbeddings = {
        QStringLiteral("lm_head.weight"),
        QStringLiteral("embed_tokens.weight"),
        QStringLiteral("wte.weight"),
        QStringLiteral("word_embeddings.weight"),
        QStringLiteral("shared.weight"),
        QStringLiteral("embed_in.weight"),
        QStringLiteral("embed_out.weight"),
        QStringLiteral("predictions.decoder.weight"),
        QStringLiteral("tok_embeddings.weight"),
        QStringLiteral("output.weight"),
    };
    return std::all_of(names.begin(), names.end(), [](const QString& name) {
        return std::any_of(kEmbeddings.begin(), kEmbeddings.end(), [&](const QString& suffix) {
            return name == suffix || name.endsWith(QLatin1Char('.') + suffix);
        });
    });
}

Result<std::vector<Diagnostic>> DuplicateFindings::of(const std::vector<TensorStats>& tensors,
                                                      const std::vector<TensorLocation>& locations,
                                                      const std::vector<const TensorInfo*>& infos,
                                                      const CancelToken& cancel)
{
    std::map<CandidateKey, std::vector<std::size_t>> candidates;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const TensorStats& t = tensors[i];
        if (t.nanInfOnly || isConstant(t) || locations[i].length == 0)
            continue;
        candidates[CandidateKey{&t, infos[i], locations[i].length}].push_back(i);
    }
    std::vector<std::pair<std::size_t, Diagnostic>> found; // by first tensor, for tensor order
    for (const auto& [key, group] : candidates) {
        if (group.size() < 2)
            continue;
        // Split the group into classes of identical bytes, each led by its first member.
        std::vector<std::vector<std::size_t>> classes;
        for (std::size_t i : group) {
            bool placed = false;
            for (std::vector<std::size_t>& c : classes) {
                Result<bool> same = sameBytes(locations[c.front()], locations[i], cancel);
                if (!same)
                    return same.error();
                if (*same) {
                    c.push_back(i);
                    placed = true;
                    break;
                }
            }
            if (!placed)
                classes.push_back({i});
        }
        for (std::vector<std::size_t>& c : classes) {
            if (c.size() < 2)
                continue;
            // By name, so the finding reads the same whatever order the tensors were scanned in.
            std::sort(c.begin(), c.end(),
                      [&](std::size_t a, std::size_t b) { return tensors[a].name < tensors[b].name; });
            std::vector<QString> names;
            for (std::size_t i : c)
                names.push_back(tensors[i].name);
            const bool tied = isKnownTying(names);
            const QString bytes = formatBytes(locations[c.front()].length);
            Diagnostic d{QStringLiteral("DuplicateTensor"), tied ? Severity::Info : Severity::Warning,
                         tied ? QStringLiteral("Tensors %1 hold identical data (%2): tied input and output "
                                               "embeddings, a common convention.")
                                    .arg(quotedList(names), bytes)
                              : QStringLiteral("Tensors %1 hold identical data (%2 each).")
                                    .arg(quotedList(names), bytes),
                         names.front(), locations[c.front()].offset};
            found.emplace_back(c.front(), std::move(d));
        }
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Diagnostic> out;
    for (auto& f : found)
        out.push_back(std::move(f.second));
    return out;
}

} // namespace ts
