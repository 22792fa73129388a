#pragma once

#include <QByteArray>

#include <cstdint>

namespace ts {

// The format's u64 length prefix (and the save journal's framing) is little-endian whatever the
// host: byte by byte, never a memcpy into an integer.
inline std::uint64_t readLe64(const char* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

inline void appendLe64(QByteArray& out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.append(static_cast<char>((v >> (8 * i)) & 0xff));
}

} // namespace ts
