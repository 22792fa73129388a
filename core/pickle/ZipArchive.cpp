#include "pickle/ZipArchive.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace ts::pickle {
namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50;
constexpr std::uint32_t kCentralSig = 0x02014b50;
constexpr std::uint32_t kEndSig = 0x06054b50;
constexpr std::uint32_t kEnd64Sig = 0x06064b50;
constexpr std::uint32_t kLocator64Sig = 0x07064b50;
constexpr std::uint64_t kMaxCentralDirectory = 256u << 20;
// Bits miniz accepts and torch's writer sets: deflate options (1, 2), data descriptor (3),
// UTF-8 names (11). Anything else changes how some reader takes the member.
constexpr std::uint16_t kPlainFlags = 0x0002 | 0x0004 | 0x0008 | 0x0800;

std::uint16_t u16(const std::byte* p)
{
    return static_cast<std::uint16_t>(static_cast<std::uint8_t>(p[0]) |
                                      (static_cast<std::uint8_t>(p[1]) << 8));
}

std::uint32_t u32(const std::byte* p)
{
    return static_cast<std::uint32_t>(u16(p)) | (static_cast<std::uint32_t>(u16(p + 2)) << 16);
}

std::uint64_t u64(const std::byte* p)
{
    return static_cast<std::uint64_t>(u32(p)) | (static_cast<std::uint64_t>(u32(p + 4)) << 32);
}

Error zipError(const QString& where, const QString& message,
               std::optional<std::uint64_t> offset = std::nullopt)
{
    return makeError(ErrorCode::InvalidHeader, where, message, {}, offset);
}

bool equalsIgnoringAsciiCase(const std::string& a, const std::string& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
               };
               return lower(x) == lower(y);
           });
}

QString flagText(std::uint16_t flags)
{
    QStringList parts;
    if (flags & 0x0001)
        parts << QStringLiteral("encrypted (bit 0)");
    if (flags & 0x0020)
        parts << QStringLiteral("patched data (bit 5)");
    if (flags & 0x0040)
        parts << QStringLiteral("strong encryption (bit 6)");
    const std::uint16_t other = static_cast<std::uint16_t>(flags & ~(kPlainFlags | 0x0001 | 0x0020 | 0x0040));
    if (other)
        parts << QStringLiteral("0x%1").arg(other, 4, 16, QLatin1Char('0'));
    return parts.join(QStringLiteral(", "));
}

} // namespace

Result<ZipArchive> ZipArchive::read(const ByteSource& source, PickleAudit& audit, const QString& where)
{
    const std::uint64_t size = source.size();
    if (size < 22)
        return zipError(
            where, QStringLiteral("the zip archive is %1 bytes, too short for its end record").arg(size));
    // The end record is in the last 22 + 65535 (comment) bytes.
    const std::uint64_t tailSize = std::min<std::uint64_t>(size, 22 + 65535 + 20);
    std::vector<std::byte> tail(tailSize);
    if (auto r = source.read(size - tailSize, tail); !r)
        return r.error();
    std::int64_t end = -1;
    for (std::int64_t i = static_cast<std::int64_t>(tailSize) - 22; i >= 0; --i) {
        if (u32(tail.data() + i) == kEndSig) {
            end = i;
            break;
        }
    }
    if (end < 0)
        return zipError(where,
                        QStringLiteral("no end of central directory record: the zip archive is cut short or "
                                       "is no zip archive"));
    const std::byte* e = tail.data() + end;
    std::uint64_t entries = u16(e + 10);
    std::uint64_t cdSize = u32(e + 12);
    std::uint64_t cdOffset = u32(e + 16);
    const std::uint64_t endOffset = size - tailSize + static_cast<std::uint64_t>(end);
    if (end >= 20 && u32(e - 20) == kLocator64Sig) {
        const std::uint64_t end64 = u64(e - 20 + 8);
        std::byte rec[56];
        if (end64 > size || size - end64 < sizeof rec)
            return zipError(where, QStringLiteral("the ZIP64 end record lies past the end of the file"),
                            endOffset);
        if (auto r = source.read(end64, rec); !r)
            return r.error();
        if (u32(rec) != kEnd64Sig)
            return zipError(where, QStringLiteral("the ZIP64 locator points at no ZIP64 end record"), end64);
        entries = u64(rec + 32);
        cdSize = u64(rec + 40);
        cdOffset = u64(rec + 48);
    }
    if (cdOffset > size || cdSize > size - cdOffset)
        return zipError(where,
                        QStringLiteral("the central directory (%1 bytes at byte %2) lies past the end of the "
                                       "file (%3 bytes)")
                            .arg(cdSize)
                            .arg(cdOffset)
                            .arg(size));
    if (cdSize > kMaxCentralDirectory)
        return zipError(
            where,
            QStringLiteral("the central directory is %1 bytes, more than any checkpoint's").arg(cdSize));
    if (entries > cdSize / 46)
        return zipError(where,
                        QStringLiteral("the end record declares %1 members, more than %2 bytes of central "
                                       "directory can hold")
                            .arg(entries)
                            .arg(cdSize),
                        endOffset);
    std::vector<std::byte> cd(cdSize);
    if (auto r = source.read(cdOffset, cd); !r)
        return r.error();

    ZipArchive zip;
    zip.m_cdOffset = cdOffset;
    std::uint64_t p = 0;
    for (std::uint64_t i = 0; i < entries; ++i) {
        if (cdSize - p < 46 || u32(cd.data() + p) != kCentralSig)
            return zipError(
                where, QStringLiteral("central directory entry %1 of %2 is broken").arg(i + 1).arg(entries),
                cdOffset + p);
        const std::byte* c = cd.data() + p;
        ZipMember m;
        m.centralOffset = cdOffset + p;
        m.flags = u16(c + 8);
        m.method = u16(c + 10);
        m.crc = u32(c + 16);
        m.compressedSize = u32(c + 20);
        m.size = u32(c + 24);
        const std::uint16_t nameLen = u16(c + 28);
        const std::uint16_t extraLen = u16(c + 30);
        const std::uint16_t commentLen = u16(c + 32);
        m.headerOffset = u32(c + 42);
        if (cdSize - p - 46 < static_cast<std::uint64_t>(nameLen) + extraLen + commentLen)
            return zipError(where,
                            QStringLiteral("central directory entry %1 runs past the directory").arg(i + 1),
                            m.centralOffset);
        m.name.assign(reinterpret_cast<const char*>(c + 46), nameLen);
        // ZIP64 extended information: each 64-bit field present when its 32-bit one is all ones.
        const std::byte* x = c + 46 + nameLen;
        for (std::uint16_t q = 0; q + 4 <= extraLen;) {
            const std::uint16_t id = u16(x + q);
            const std::uint16_t len = u16(x + q + 2);
            if (q + 4u + len > extraLen)
                break;
            if (id == 0x0001) {
                const std::byte* f = x + q + 4;
                std::uint16_t used = 0;
                auto take = [&](std::uint64_t& field) {
                    if (field == 0xFFFFFFFFu && used + 8 <= len) {
                        field = u64(f + used);
                        used += 8;
                    }
                };
                take(m.size);
                take(m.compressedSize);
                take(m.headerOffset);
            }
            q = static_cast<std::uint16_t>(q + 4 + len);
        }
        p += 46ull + nameLen + extraLen + commentLen;

        std::byte local[30];
        if (m.headerOffset > size || size - m.headerOffset < sizeof local)
            return zipError(where,
                            QStringLiteral("member \"%1\" has its local header past the end of the file")
                                .arg(QString::fromStdString(m.name)),
                            m.headerOffset);
        if (auto r = source.read(m.headerOffset, local); !r)
            return r.error();
        if (u32(local) != kLocalSig)
            return zipError(where,
                            QStringLiteral("member \"%1\" has no local header at byte %2")
                                .arg(QString::fromStdString(m.name))
                                .arg(m.headerOffset),
                            m.headerOffset);
        m.localFlags = u16(local + 6);
        const std::uint16_t localNameLen = u16(local + 26);
        const std::uint16_t localExtraLen = u16(local + 28);
        m.dataOffset = m.headerOffset + 30 + localNameLen + localExtraLen;
        if (m.dataOffset > size || m.compressedSize > size - m.dataOffset)
            return zipError(
                where,
                QStringLiteral("member \"%1\" (%2 bytes at byte %3) runs past the end of the file")
                    .arg(QString::fromStdString(m.name))
                    .arg(m.compressedSize)
                    .arg(m.dataOffset),
                m.dataOffset);
        std::vector<std::byte> localName(localNameLen);
        if (auto r = source.read(m.headerOffset + 30, localName); !r)
            return r.error();
        m.localName.assign(reinterpret_cast<const char*>(localName.data()), localName.size());
        const QString shown = QString::fromStdString(m.name);
        if (m.localName != m.name) {
            audit.add(QStringLiteral("ZipNameMismatch"), Severity::Warning,
                      QStringLiteral(
                          "member \"%1\" is called \"%2\" in its local header at byte %3: torch reads the "
                          "central directory's name, Python's zipfile (what most scanners read with) "
                          "refuses the member")
                          .arg(shown, QString::fromStdString(m.localName))
                          .arg(m.headerOffset),
                      m.headerOffset);
        }
        if ((m.flags | m.localFlags) & ~kPlainFlags) {
            audit.add(
                QStringLiteral("ZipFlagBits"), Severity::Warning,
                QStringLiteral("member \"%1\" has the flag bits %2 (central directory 0x%3, local header "
                               "0x%4): torch's miniz refuses to read such a member, Python's zipfile refuses "
                               "it or the whole archive, so readers disagree on what the file holds")
                    .arg(shown, flagText(static_cast<std::uint16_t>(m.flags | m.localFlags)))
                    .arg(m.flags, 4, 16, QLatin1Char('0'))
                    .arg(m.localFlags, 4, 16, QLatin1Char('0')),
                m.headerOffset);
        }
        zip.m_members.push_back(std::move(m));
    }
    if (zip.m_members.empty())
        return zipError(where, QStringLiteral("the zip archive has no members"));
    const std::size_t slash = zip.m_members.front().name.find('/');
    if (slash == std::string::npos)
        return zipError(
            where, QStringLiteral("the first member \"%1\" is in no folder: torch.load needs every record "
                                  "under one folder")
                       .arg(QString::fromStdString(zip.m_members.front().name)));
    zip.m_root = zip.m_members.front().name.substr(0, slash);
    for (std::size_t i = 0; i < zip.m_members.size(); ++i) {
        for (std::size_t j = i + 1; j < zip.m_members.size(); ++j) {
            if (zip.m_members[i].name == zip.m_members[j].name) {
                audit.add(QStringLiteral("ZipDuplicateName"), Severity::Warning,
                          QStringLiteral(
                              "\"%1\" is in the archive twice (at byte %2 and at byte %3): torch takes the "
                              "last, a reader that takes the first sees other contents")
                              .arg(QString::fromStdString(zip.m_members[i].name))
                              .arg(zip.m_members[i].headerOffset)
                              .arg(zip.m_members[j].headerOffset),
                          zip.m_members[j].headerOffset);
                break;
            }
        }
        if (i > 64 && zip.m_members.size() > 4096)
            break; // the quadratic check only for archives of plausible size
    }
    return zip;
}

int ZipArchive::find(const std::string& name) const
{
    const std::string wanted = m_root + "/" + name;
    int found = -1;
    for (std::size_t i = 0; i < m_members.size(); ++i) {
        if (equalsIgnoringAsciiCase(m_members[i].name, wanted))
            found = static_cast<int>(i);
    }
    return found;
}

Result<std::string> ZipArchive::contents(const ByteSource& source, const ZipMember& member,
                                         std::uint64_t maxBytes) const
{
    const QString name = QString::fromStdString(member.name);
    if (member.size > maxBytes)
        return makeError(ErrorCode::LimitExceeded, source.displayName(),
                         QStringLiteral("member \"%1\" is %2 bytes, more than Tensorscope reads into memory")
                             .arg(name)
                             .arg(member.size),
                         {}, member.dataOffset);
    if (member.method == 0) {
        if (member.compressedSize != member.size)
            return zipError(
                source.displayName(),
                QStringLiteral("stored member \"%1\" declares %2 bytes stored and %3 bytes of contents")
                    .arg(name)
                    .arg(member.compressedSize)
                    .arg(member.size),
                member.centralOffset);
        std::string out(member.size, '\0');
        if (auto r =
                source.read(member.dataOffset, std::as_writable_bytes(std::span(out.data(), out.size())));
            !r)
            return r.error();
        return out;
    }
    if (member.method != 8)
        return zipError(
            source.displayName(),
            QStringLiteral("member \"%1\" uses compression method %2, which torch cannot read either")
                .arg(name)
                .arg(member.method),
            member.centralOffset);
    std::string in(member.compressedSize, '\0');
    if (auto r = source.read(member.dataOffset, std::as_writable_bytes(std::span(in.data(), in.size()))); !r)
        return r.error();
    std::string out(member.size, '\0');
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return zipError(source.displayName(), QStringLiteral("zlib could not start inflating"));
    z.next_in = reinterpret_cast<Bytef*>(in.data());
    z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in.size(), 0xFFFFFFFFu));
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(std::min<std::uint64_t>(out.size(), 0xFFFFFFFFu));
    const int rc = inflate(&z, Z_FINISH);
    const std::uint64_t produced = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || produced != member.size)
        return zipError(source.displayName(),
                        QStringLiteral("deflated member \"%1\" does not inflate to the %2 bytes it declares")
                            .arg(name)
                            .arg(member.size),
                        member.dataOffset);
    return out;
}

std::uint32_t crc32Of(const ByteSource& source, std::uint64_t offset, std::uint64_t length, bool* ok)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    std::vector<std::byte> buf;
    constexpr std::uint64_t kChunk = 1u << 20;
    for (std::uint64_t done = 0; done < length;) {
        const std::uint64_t n = std::min(kChunk, length - done);
        const std::span<const std::byte> view = source.view(offset + done, n);
        if (!view.empty()) {
            crc = crc32(crc, reinterpret_cast<const Bytef*>(view.data()), static_cast<uInt>(n));
            if (!source.checkView(offset + done, n)) {
                *ok = false;
                return 0;
            }
        } else {
            buf.resize(n);
            if (!source.read(offset + done, buf)) {
                *ok = false;
                return 0;
            }
            crc = crc32(crc, reinterpret_cast<const Bytef*>(buf.data()), static_cast<uInt>(n));
        }
        done += n;
    }
    *ok = true;
    return static_cast<std::uint32_t>(crc);
}

} // namespace ts::pickle
