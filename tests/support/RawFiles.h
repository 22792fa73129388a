#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

// Safetensors files built byte by byte, valid or broken on purpose: what a writer that follows the
// format would never produce.
namespace ts::test {

// The 8-byte little-endian length prefix.
QByteArray le64(std::uint64_t n);
// prefix(N) + header, the header padded with spaces to a multiple of `align` (1 = none), then `data`.
QByteArray rawSafetensors(const QByteArray& header, const QByteArray& data = {}, int align = 8);
// A valid file of U8 tensors, each (name, byte count), in that order; the data is a pattern, and
// `metadataJson` (when given) is the __metadata__ object as written.
QByteArray u8Safetensors(const std::vector<std::pair<QString, int>>& tensors,
                         const QByteArray& metadataJson = {});

} // namespace ts::test
