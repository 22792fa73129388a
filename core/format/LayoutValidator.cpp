#include "format/LayoutValidator.h"

#include "format/WriterOrder.h"

#include <algorithm>
#include <numeric>

namespace ts {

std::optional<std::uint64_t> checkedElementCount(const Shape& shape)
{
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape) {
        if (__builtin_mul_overflow(n, d, &n))
            return std::nullopt;
    }
    return n;
}

namespace {

void addNonCanonicalOrder(Header& header, const TensorInfo& t, std::uint64_t plannedOffset)
{
    header.warnings.push_back(Diagnostic{
        QStringLiteral("NonCanonicalOrder"), Severity::Info,
        QStringLiteral("tensors are not in the reference writer's order (dtype descending, then name): "
                       "\"%1\" would start at data byte %2 but starts at %3; the file was not written by the "
                       "reference writer")
            .arg(t.name)
            .arg(plannedOffset)
            .arg(t.begin),
        t.name, header.dataOffset() + t.begin});
}

void addLayoutWarnings(Header& header, const QString& file)
{
    (void)file;
    if (header.headerLength % 8 != 0) {
        header.warnings.push_back(Diagnostic{
            QStringLiteral("HeaderNotPadded"),
            Severity::Info,
            QStringLiteral(
                "the header is %1 bytes, not a multiple of 8, so the data buffer starts at byte %2 and "
                "no tensor is aligned in memory (the reference writer pads to 8)")
                .arg(header.headerLength)
                .arg(header.dataOffset()),
            {},
            0});
    }
    int unaligned = 0;
    for (const TensorInfo& t : header.tensors) {
        const int bits = dtypeBits(t.dtype);
        if (bits < 16 || t.byteSize() == 0)
            continue;
        const std::uint64_t elementBytes = static_cast<std::uint64_t>(bits / 8);
        // C64 is two F32s: 4-byte alignment is what a reader needs.
        const std::uint64_t need = t.dtype == Dtype::C64 ? 4 : elementBytes;
        if (t.begin % need != 0) {
            if (++unaligned > 20)
                continue;
            header.warnings.push_back(Diagnostic{
                QStringLiteral("UnalignedOffset"), Severity::Warning,
                QStringLiteral("tensor \"%1\" (%2) starts at data byte %3, not a multiple of %4: zero-copy "
                               "readers cannot use it in place")
                    .arg(t.name, dtypeName(t.dtype))
                    .arg(t.begin)
                    .arg(need),
                t.name, header.dataOffset() + t.begin});
        }
    }
    if (unaligned > 20) {
        header.warnings.push_back(
            Diagnostic{QStringLiteral("UnalignedOffset"),
                       Severity::Warning,
                       QStringLiteral("%1 more tensors are not aligned").arg(unaligned - 20),
                       {},
                       std::nullopt});
    }
    // The reference writer orders the buffer by dtype (descending) then name; anything else was
    // written by another tool, or edited. Compared by planned offsets, so zero-size tensors that
    // share an offset in any order still count as canonical.
    const auto& tensors = header.tensors; // in buffer order (validateLayout sorted them)
    const std::size_t n = tensors.size();
    // The planned order is the buffer order up to the first tensor with a smaller one (writer order)
    // after it: there the plan takes the smallest of the rest. The smallest of every suffix, found
    // from the end, gives that tensor in n - 1 comparisons where sorting the whole plan took n log n
    // name comparisons (a fifth of opening a 100k-tensor file written in another order).
    std::vector<std::uint32_t> suffixLeast(n);
    for (std::size_t i = n; i-- > 0;) {
        suffixLeast[i] = static_cast<std::uint32_t>(i);
        if (i + 1 < n && writerOrderLess(tensors[suffixLeast[i + 1]], tensors[i]))
            suffixLeast[i] = suffixLeast[i + 1];
    }
    std::size_t first = 0;
    while (first < n && suffixLeast[first] == first)
        ++first;
    if (first == n)
        return; // the buffer is in the reference writer's order
    const TensorInfo* t = &tensors[suffixLeast[first]];
    const std::uint64_t offset = tensors[first].begin; // the layout is contiguous: validated
    if (t->begin == offset) {
        // Zero-size tensors share an offset and may come in any order: only the full plan says
        // whether a later tensor starts elsewhere (rare, and the old, exact walk).
        std::vector<const TensorInfo*> planned;
        planned.reserve(n);
        for (const TensorInfo& u : tensors)
            planned.push_back(&u);
        std::stable_sort(planned.begin(), planned.end(),
                         [](const TensorInfo* a, const TensorInfo* b) { return writerOrderLess(*a, *b); });
        std::uint64_t at = 0;
        t = nullptr;
        for (const TensorInfo* u : planned) {
            if (u->begin != at) {
                t = u;
                break;
            }
            at += u->byteSize();
        }
        if (!t)
            return;
        addNonCanonicalOrder(header, *t, at);
        return;
    }
    addNonCanonicalOrder(header, *t, offset);
}

} // namespace

Result<void> validateLayout(Header& header, std::uint64_t fileSize, const QString& file)
{
    auto& tensors = header.tensors;
    // stable_sort keeps header order among identical ranges: the deterministic choice where the
    // reference's HashMap order is random.
    const auto byRange = [](const TensorInfo& a, const TensorInfo& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    };
    // Headers usually list tensors in buffer order already: check before moving anything.
    if (!std::is_sorted(tensors.begin(), tensors.end(), byRange))
        std::stable_sort(tensors.begin(), tensors.end(), byRange);
    const std::uint64_t base = header.dataOffset();
    std::uint64_t start = 0;
    for (const TensorInfo& t : tensors) {
        if (t.begin != start || t.end < t.begin) {
            QString why;
            if (t.end < t.begin)
                why =
                    QStringLiteral("its data_offsets [%1, %2] end before they begin").arg(t.begin).arg(t.end);
            else if (t.begin > start)
                why = QStringLiteral(
                          "it starts at data byte %1 but the previous tensor ends at %2, leaving a hole")
                          .arg(t.begin)
                          .arg(start);
            else
                why = QStringLiteral("it starts at data byte %1, inside the previous tensor which ends at %2 "
                                     "(overlap)")
                          .arg(t.begin)
                          .arg(start);
            return makeError(ErrorCode::InvalidOffset, file,
                             QStringLiteral("invalid offset for tensor \"%1\": %2").arg(t.name, why), t.name,
                             base + std::min(t.begin, t.end));
        }
        start = t.end;
        const auto count = checkedElementCount(t.shape);
        std::uint64_t bits = 0;
        if (!count || __builtin_mul_overflow(*count, static_cast<std::uint64_t>(dtypeBits(t.dtype)), &bits)) {
            return makeError(ErrorCode::ValidationOverflow, file,
                             QStringLiteral("tensor \"%1\" has shape %2 whose size overflows 64 bits")
                                 .arg(t.name, t.shapeString()),
                             t.name, base + t.begin);
        }
        if (bits % 8 != 0) {
            return makeError(
                ErrorCode::MisalignedSlice, file,
                QStringLiteral("tensor \"%1\" is %2 %3 elements = %4 bits, not a whole number of bytes")
                    .arg(t.name)
                    .arg(*count)
                    .arg(dtypeName(t.dtype))
                    .arg(bits),
                t.name, base + t.begin);
        }
        if (t.end - t.begin != bits / 8) {
            return makeError(
                ErrorCode::TensorInvalidInfo, file,
                QStringLiteral("tensor \"%1\" (%2 %3) needs %4 bytes but its data_offsets [%5, %6] "
                               "cover %7")
                    .arg(t.name, dtypeName(t.dtype), t.shapeString())
                    .arg(bits / 8)
                    .arg(t.begin)
                    .arg(t.end)
                    .arg(t.end - t.begin),
                t.name, base + t.begin);
        }
    }
    // The reference adds without checking; a wrapped sum can never equal the size, so comparing
    // with a checked sum gives the same verdict without the overflow.
    std::uint64_t expected = 0;
    if (__builtin_add_overflow(start, base, &expected) || expected != fileSize) {
        QString why =
            expected > fileSize || expected < start
                ? QStringLiteral("the tensors need %1 data bytes but the file has only %2 after the header")
                      .arg(start)
                      .arg(fileSize - base)
                : QStringLiteral("the tensors cover %1 data bytes but %2 more bytes follow them (data "
                                 "hidden after the last tensor)")
                      .arg(start)
                      .arg(fileSize - expected);
        return makeError(ErrorCode::MetadataIncompleteBuffer, file,
                         QStringLiteral("the data buffer does not match the tensors: ") + why, {},
                         std::min(expected < start ? fileSize : expected, fileSize));
    }
    // Only zero-size tensors can share a range in a valid file; list those by name so the order
    // is the same whatever order the header gave them in.
    const auto byRangeThenName = [](const TensorInfo& a, const TensorInfo& b) {
        if (a.begin != b.begin)
            return a.begin < b.begin;
        return a.end != b.end ? a.end < b.end : a.name < b.name;
    };
    if (!std::is_sorted(tensors.begin(), tensors.end(), byRangeThenName))
        std::sort(tensors.begin(), tensors.end(), byRangeThenName);
    addLayoutWarnings(header, file);
    return {};
}

} // namespace ts
