#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"

#include <span>
#include <string>
#include <vector>

namespace ts::pickle {

struct TarMember {
    std::string name;
    char type = '0';
    std::uint64_t headerOffset = 0;
    std::uint64_t dataOffset = 0;
    std::uint64_t size = 0;
};

// The members of a tar file (ustar, pax and GNU long names), as Python's tarfile lists them for
// torch's legacy_load: the bytes of each stay where they are in the file.
class TarArchive {
public:
    static Result<TarArchive> read(const ByteSource& source, const QString& where);

    const std::vector<TarMember>& members() const { return m_members; }
    // The last member of that name (tarfile's getmember), or null.
    const TarMember* find(const std::string& name) const;

private:
    std::vector<TarMember> m_members;
};

// True when the first 512 bytes are a tar header with a valid checksum: what makes
// tarfile.open succeed, so that torch.load takes the tar path before any other.
bool isTarHeader(std::span<const std::byte> block);

} // namespace ts::pickle
