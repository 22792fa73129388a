#include "analysis/DeadRowFindings.h"

#include "base/Format.h"
#include "view/ElementReader.h"

#include <QStringList>

#include <algorithm>

namespace ts {
namespace {

// Elements decoded per read: 4 MiB of doubles.
constexpr std::uint64_t kBandElements = 1u << 19;

struct DeadLines {
    std::uint64_t rows = 0;
    std::uint64_t firstRow = 0;
    std::uint64_t cols = 0;
    std::uint64_t firstCol = 0;
};

Result<DeadLines> findDeadLines(const TensorLocation& location, const TensorInfo& info,
                                const CancelToken& cancel)
{
    const std::uint64_t rows = info.shape[0];
    const std::uint64_t cols = info.shape[1];
    const ElementReader reader(location, info);
    std::vector<bool> colLive(cols, false);
    DeadLines dead;
    const std::uint64_t bandRows = std::max<std::uint64_t>(1, kBandElements / cols);
    for (std::uint64_t r0 = 0; r0 < rows; r0 += bandRows) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, location.source->displayName(),
                             QStringLiteral("The scan was cancelled."), info.name);
        const std::uint64_t n = std::min(bandRows, rows - r0);
        Result<std::vector<double>> values = reader.read(r0 * cols, n * cols);
        if (!values)
            return values.error();
        for (std::uint64_t r = 0; r < n; ++r) {
            const double* row = values->data() + r * cols;
            bool rowLive = false;
            for (std::uint64_t c = 0; c < cols; ++c) {
                if (row[c] != 0) { // NaN counts as live: it is not a zero, and has its own finding
                    rowLive = true;
                    colLive[c] = true;
                }
            }
            if (!rowLive && cols >= DeadRowFindings::kMinLine && dead.rows++ == 0)
                dead.firstRow = r0 + r;
        }
    }
    for (std::uint64_t c = 0; c < cols; ++c) {
        if (!colLive[c] && rows >= DeadRowFindings::kMinLine && dead.cols++ == 0)
            dead.firstCol = c;
    }
    return dead;
}

} // namespace

Result<std::vector<Diagnostic>> DeadRowFindings::of(const std::vector<TensorStats>& tensors,
                                                    const std::vector<TensorLocation>& locations,
                                                    const std::vector<const TensorInfo*>& infos,
                                                    const CancelToken& cancel)
{
    std::vector<Diagnostic> out;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const TensorStats& t = tensors[i];
        const TensorInfo& info = *infos[i];
        if (t.nanInfOnly || info.shape.size() != 2 || !isFloating(info.dtype) || t.real)
            continue;
        const std::uint64_t rows = info.shape[0], cols = info.shape[1];
        if (std::max(rows, cols) < kMinLine || t.values.zeros == t.elements)
            continue;
        // The shortest line that may count: fewer zeros than that cannot fill one.
        const std::uint64_t shortest =
            std::min(rows >= kMinLine ? rows : cols, cols >= kMinLine ? cols : rows);
        if (t.values.zeros < shortest)
            continue;
        Result<DeadLines> dead = findDeadLines(locations[i], info, cancel);
        if (!dead)
            return dead.error();
        if (dead->rows == 0 && dead->cols == 0)
            continue;
        QStringList parts;
        if (dead->rows > 0)
            parts << QStringLiteral("%1 of %2 (first: row %3)")
                         .arg(formatNoun(dead->rows, "all-zero row", "all-zero rows"), formatGrouped(rows),
                              QString::number(dead->firstRow));
        if (dead->cols > 0)
            parts << QStringLiteral("%1 of %2 (first: column %3)")
                         .arg(formatNoun(dead->cols, "all-zero column", "all-zero columns"),
                              formatGrouped(cols), QString::number(dead->firstCol));
        std::optional<std::uint64_t> offset;
        if (dead->rows > 0)
            offset = locations[i].offset +
                     dead->firstRow * cols * static_cast<std::uint64_t>(dtypeBits(info.dtype)) / 8;
        out.push_back(
            {QStringLiteral("DeadRows"), Severity::Warning,
             QStringLiteral("Tensor \"%1\" has %2.").arg(t.name, parts.join(QStringLiteral(" and "))), t.name,
             offset});
    }
    return out;
}

} // namespace ts
