#include "pickle/TarArchive.h"

#include <algorithm>
#include <optional>

namespace ts::pickle {
namespace {

constexpr std::uint64_t kBlock = 512;
constexpr std::size_t kMaxMembers = 1u << 20;

std::optional<std::uint64_t> number(std::span<const std::byte> field)
{
    // GNU base-256 for big values: the first byte's high bit set.
    if (!field.empty() && (static_cast<std::uint8_t>(field[0]) & 0x80)) {
        std::uint64_t v = static_cast<std::uint8_t>(field[0]) & 0x7F;
        for (std::size_t i = 1; i < field.size(); ++i) {
            if (v >> 56)
                return std::nullopt;
            v = (v << 8) | static_cast<std::uint8_t>(field[i]);
        }
        return v;
    }
    std::uint64_t v = 0;
    bool digits = false;
    for (std::byte b : field) {
        const char c = static_cast<char>(b);
        if (c == ' ' && !digits)
            continue;
        if (c < '0' || c > '7')
            break;
        if (v >> 60)
            return std::nullopt;
        v = v * 8 + static_cast<std::uint64_t>(c - '0');
        digits = true;
    }
    if (!digits)
        return 0;
    return v;
}

std::string cString(std::span<const std::byte> field)
{
    std::string s(reinterpret_cast<const char*>(field.data()), field.size());
    if (const std::size_t nul = s.find('\0'); nul != std::string::npos)
        s.resize(nul);
    return s;
}

// "len key=value\n" records of a pax header.
void paxRecords(const std::string& data, std::string& path, std::uint64_t& size, bool& hasSize)
{
    std::size_t p = 0;
    while (p < data.size()) {
        const std::size_t space = data.find(' ', p);
        if (space == std::string::npos)
            return;
        std::uint64_t len = 0;
        for (std::size_t i = p; i < space; ++i) {
            if (data[i] < '0' || data[i] > '9' || len > data.size())
                return;
            len = len * 10 + static_cast<std::uint64_t>(data[i] - '0');
        }
        if (len == 0 || p + len > data.size())
            return;
        const std::string record = data.substr(space + 1, p + len - space - 2);
        if (const std::size_t eq = record.find('='); eq != std::string::npos) {
            const std::string key = record.substr(0, eq);
            const std::string value = record.substr(eq + 1);
            if (key == "path")
                path = value;
            else if (key == "size") {
                std::uint64_t v = 0;
                bool ok = !value.empty();
                for (char c : value) {
                    if (c < '0' || c > '9' || v > (1ull << 60)) {
                        ok = false;
                        break;
                    }
                    v = v * 10 + static_cast<std::uint64_t>(c - '0');
                }
                if (ok) {
                    size = v;
                    hasSize = true;
                }
            }
        }
        p += len;
    }
}

} // namespace

bool isTarHeader(std::span<const std::byte> block)
{
    if (block.size() < kBlock)
        return false;
    const auto stored = number(block.subspan(148, 8));
    if (!stored)
        return false;
    std::uint64_t unsignedSum = 0;
    std::int64_t signedSum = 0;
    bool allZero = true;
    for (std::size_t i = 0; i < kBlock; ++i) {
        const auto b = (i >= 148 && i < 156) ? std::uint8_t(' ') : static_cast<std::uint8_t>(block[i]);
        allZero = allZero && static_cast<std::uint8_t>(block[i]) == 0;
        unsignedSum += b;
        signedSum += static_cast<std::int8_t>(b);
    }
    return !allZero && (*stored == unsignedSum || static_cast<std::int64_t>(*stored) == signedSum);
}

Result<TarArchive> TarArchive::read(const ByteSource& source, const QString& where)
{
    TarArchive tar;
    const std::uint64_t size = source.size();
    std::uint64_t pos = 0;
    std::string nextName;
    std::uint64_t nextSize = 0;
    bool hasNextSize = false;
    std::vector<std::byte> header(kBlock);
    while (size - pos >= kBlock) {
        if (auto r = source.read(pos, header); !r)
            return r.error();
        if (std::all_of(header.begin(), header.end(), [](std::byte b) { return b == std::byte{0}; }))
            break; // the end-of-archive blocks
        if (!isTarHeader(header))
            return makeError(ErrorCode::InvalidHeader, where,
                             QStringLiteral("the tar header at byte %1 has a wrong checksum").arg(pos), {},
                             pos);
        TarMember m;
        m.headerOffset = pos;
        m.type = static_cast<char>(header[156]);
        std::string name = cString(std::span(header).subspan(0, 100));
        const std::string prefix = cString(std::span(header).subspan(345, 155));
        if (cString(std::span(header).subspan(257, 5)) == "ustar" && !prefix.empty())
            name = prefix + "/" + name;
        m.size = number(std::span(header).subspan(124, 12)).value_or(0);
        if (hasNextSize)
            m.size = nextSize;
        m.name = nextName.empty() ? name : nextName;
        nextName.clear();
        hasNextSize = false;
        m.dataOffset = pos + kBlock;
        if (m.dataOffset > size || m.size > size - m.dataOffset)
            return makeError(
                ErrorCode::InvalidHeader, where,
                QStringLiteral("tar member \"%1\" (%2 bytes at byte %3) runs past the end of the file")
                    .arg(QString::fromStdString(m.name))
                    .arg(m.size)
                    .arg(m.dataOffset),
                {}, m.headerOffset);
        const std::uint64_t padded = (m.size + kBlock - 1) / kBlock * kBlock;
        pos = m.dataOffset + std::min(padded, size - m.dataOffset);
        if (m.type == 'x' || m.type == 'L') {
            // A pax header or GNU long name for the member that follows.
            if (m.size > (1u << 20))
                return makeError(ErrorCode::LimitExceeded, where,
                                 QStringLiteral("a tar extended header of %1 bytes").arg(m.size), {},
                                 m.headerOffset);
            std::string data(m.size, '\0');
            if (auto r =
                    source.read(m.dataOffset, std::as_writable_bytes(std::span(data.data(), data.size())));
                !r)
                return r.error();
            if (m.type == 'x')
                paxRecords(data, nextName, nextSize, hasNextSize);
            else
                nextName = data.substr(0, data.find('\0'));
            continue;
        }
        if (m.type == 'g')
            continue;
        if (tar.m_members.size() >= kMaxMembers)
            return makeError(ErrorCode::LimitExceeded, where,
                             QStringLiteral("more than a million tar members"));
        tar.m_members.push_back(std::move(m));
    }
    return tar;
}

const TarMember* TarArchive::find(const std::string& name) const
{
    const TarMember* found = nullptr;
    for (const TarMember& m : m_members) {
        if (m.name == name)
            found = &m;
    }
    return found;
}

} // namespace ts::pickle
