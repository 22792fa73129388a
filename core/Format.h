#pragma once

#include <QString>

#include <cstdint>

namespace ts {

// Human-readable numbers shared by the CLI and the window.
QString formatCount(std::uint64_t n);  // 7240000000 -> "7.24B", 1500 -> "1.5K"
QString formatBytes(std::uint64_t n);  // 1288490188 -> "1.2 GiB"
QString formatGrouped(std::uint64_t n); // 1234567 -> "1,234,567"

} // namespace ts
