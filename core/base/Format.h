#pragma once

#include "format/Shape.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace ts {

// Human-readable numbers shared by the CLI and the window.
QString formatCount(std::uint64_t n);   // 7240000000 -> "7.24B", 1500 -> "1.5K"
QString formatBytes(std::uint64_t n);   // 1288490188 -> "1.2 GiB"
QString formatGrouped(std::uint64_t n); // 1234567 -> "1,234,567"
// "1 tensor", "1,234 tensors": the count grouped and the noun in the form the count takes. The
// core has no translation catalogue, so English plurals are made here rather than as "tensor(s)".
QString formatNoun(std::uint64_t n, const char* one, const char* many);

// Text made from a header is bounded: a valid shape can have 49 M dimensions and a name can be
// 100 MB, and laying out such a string costs gigabytes (or crashes the font shaper).
inline constexpr std::size_t kShapeDimsShown = 32;
// "[4096, 4096]"; past kShapeDimsShown dims the middle is left out and the rank stated:
// "[1, 1, ..., 1, 1] (5,000,000 dims)".
QString formatShape(const Shape& shape);
// `text` cut to `maxChars` characters (never inside a surrogate pair) with "... (N more
// characters)" after it; shorter text comes back unchanged.
QString elideText(const QString& text, qsizetype maxChars);

} // namespace ts
