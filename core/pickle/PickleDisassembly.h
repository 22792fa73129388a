#pragma once

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <span>

namespace ts::pickle {

// The opcodes of a pickle as text, pickletools.dis style ("    42: X BINUNICODE 'weight'"),
// stopping after `maxBytes` of text; what the Header page shows for a pickle checkpoint.
QByteArray disassemble(std::span<const std::byte> pickle, std::uint64_t base, std::uint64_t maxBytes);

} // namespace ts::pickle
