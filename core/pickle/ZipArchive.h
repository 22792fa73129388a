#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "pickle/PickleAudit.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace ts::pickle {

struct ZipMember {
    std::string name;      // as the central directory has it
    std::string localName; // as its local header has it
    std::uint16_t flags = 0;
    std::uint16_t localFlags = 0;
    std::uint16_t method = 0; // 0 stored, 8 deflate
    std::uint32_t crc = 0;
    std::uint64_t compressedSize = 0;
    std::uint64_t size = 0;
    std::uint64_t headerOffset = 0; // the local header
    std::uint64_t dataOffset = 0;   // the member's bytes in the file
    std::uint64_t centralOffset = 0;
};

// The central directory of a zip file and where each member's bytes are, read the way
// PyTorchStreamReader (through miniz) reads it: the central directory decides, ZIP64 fields
// included; a local header is only used to find where the data starts. Whatever a stricter
// reader (Python's zipfile, which scanners use) would refuse while torch reads on is reported:
// a local name that differs, flag bits, duplicate names. Reading never runs past the file.
class ZipArchive {
public:
    static Result<ZipArchive> read(const ByteSource& source, PickleAudit& audit, const QString& where);

    const std::vector<ZipMember>& members() const { return m_members; }
    // The folder every record is looked up under (the first member's, up to its first '/').
    const std::string& root() const { return m_root; }
    // torch's lookup of root + "/" + name: case-insensitive, the last of duplicates; -1 if none.
    int find(const std::string& name) const;
    std::uint64_t centralDirectoryOffset() const { return m_cdOffset; }

    // The member's bytes: a stored member as a range of the file, a deflated one inflated
    // (refused past `maxBytes`).
    Result<std::string> contents(const ByteSource& source, const ZipMember& member,
                                 std::uint64_t maxBytes) const;

private:
    std::vector<ZipMember> m_members;
    std::string m_root;
    std::uint64_t m_cdOffset = 0;
};

std::uint32_t crc32Of(const ByteSource& source, std::uint64_t offset, std::uint64_t length, bool* ok);

} // namespace ts::pickle
