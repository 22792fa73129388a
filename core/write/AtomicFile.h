#pragma once

#include "base/Result.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ts {

// Writes a file under a temporary name in the target's folder and renames it into place only
// when everything was written and synced, so a crash, a full disk or an error never leaves a
// partial file under the final name and never touches an existing file. Replacing a file that
// is open and mapped elsewhere is safe: the old inode lives on until its last mapping goes.
class AtomicFile {
public:
    explicit AtomicFile(QString target);
    ~AtomicFile(); // discards the temporary file unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    Result<void> open();
    Result<void> write(std::span<const std::byte> bytes);
    // Copies a range of another file by the kernel (copy_file_range: no trip through user space,
    // and a reflink on file systems that share extents). Falls back to read/write.
    Result<void> copyFrom(int sourceFd, std::uint64_t offset, std::uint64_t length);
    Result<void> commit();
    void discard();

    std::uint64_t written() const { return m_written; }
    const QString& target() const { return m_target; }
    const QString& temporaryPath() const { return m_tempPath; }

    // Deletes `.NAME.tensorscope-XXXXXX` files of `target` that a killed save left behind. A
    // save in progress holds an flock on its temporary file until it is renamed, so only the
    // temporaries of dead processes can be locked here and removed. Returns how many went.
    static int removeStaleTemporaries(const QString& target);
    // The same files, found without removing anything: path and size of each.
    static std::vector<std::pair<QString, std::uint64_t>> staleTemporaries(const QString& target);

private:
    Error ioError(const QString& what, int err) const;

    QString m_target;
    QString m_tempPath;
    int m_fd = -1;
    std::uint64_t m_written = 0;
};

} // namespace ts
