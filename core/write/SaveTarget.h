#pragma once

#include "base/Result.h"

#include <QString>

#include <cstdint>

namespace ts {

// Where a save really writes, and what must be confirmed first. One
// policy for an in-place save and a full rewrite alike:
// - a symlink is followed and kept, as text editors do: the file it points to is edited in place
//   or replaced atomically in its own folder, and the link still points to it;
// - a file inside a Hugging Face cache `blobs/` folder is never edited (the cache is
//   content-addressed: the blob's name is the hash of its bytes); save a copy instead;
// - a file with more than one hard link, or a read-only file, is refused unless forced; forced,
//   it is always replaced by a new file (a full rewrite), so the other names of a hard-linked
//   file keep the old contents and a read-only file keeps its mode.
class SaveTarget {
public:
    static SaveTarget inspect(const QString& path);

    const QString& requested() const { return m_requested; }
    const QString& resolved() const { return m_resolved; } // the file written (or created)
    bool exists() const { return m_exists; }
    bool viaSymlink() const { return m_viaSymlink; }
    bool inHuggingFaceCache() const { return m_hfBlob; }
    std::uint64_t hardLinks() const { return m_links; }
    bool readOnly() const { return m_readOnly; }
    // Whether the existing file may be changed in its own inode (an in-place save).
    bool allowsInPlace() const { return m_links <= 1 && !m_readOnly; }
    // What stops a save: a refusal nothing overrides, or (without `force`) what needs consent.
    Result<void> check(bool force) const;

private:
    QString m_requested;
    QString m_resolved;
    bool m_exists = false;
    bool m_viaSymlink = false;
    bool m_dangling = false;
    bool m_notAFile = false;
    bool m_hfBlob = false;
    std::uint64_t m_links = 0;
    bool m_readOnly = false;
};

} // namespace ts
