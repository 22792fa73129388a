#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "io/PageReleaser.h"

#include <sys/types.h>

#include <memory>

namespace ts {

// A local regular file, opened read-only and mapped lazily: opening costs the same for 1 MB and
// 1 TB because nothing is read until asked for. The mapping is watched by SigbusGuard, so a view
// of a file that shrinks while open reads zeros (and checkView() fails) instead of crashing.
class MappedFile final : public ByteSource {
public:
    static Result<std::shared_ptr<MappedFile>> open(const QString& path);
    ~MappedFile() override;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    QString displayName() const override { return m_path; }
    std::uint64_t size() const override { return m_size; }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override;
    std::span<const std::byte> view(std::uint64_t offset, std::uint64_t length) const override;
    // Lends nothing: a streaming reader copies a local file into its own reused buffer. How fast
    // the mapping reads depends on how the file sits in the page cache, which is up to whoever
    // wrote or downloaded it: a file cached in 64 KiB folios faulted through the mapping at a
    // quarter of pread's speed (17,000 faults for 1 GiB; tests/bench/analysis/RESULTS.md), and on a
    // well-cached file pread is as fast. pread also leaves no pages to unmap, so no TLB flushes.
    HeldBytes hold(std::uint64_t offset, std::uint64_t length) const override;
    Result<void> checkView(std::uint64_t offset, std::uint64_t length) const override;
    void release(std::uint64_t offset, std::uint64_t length) const override;
    bool changedOnDisk() const override;
    int nativeHandle() const override { return m_fd; }
    // 1 MiB: a local piece is read() into the reader's buffer and then scanned, and at 1 MiB it is
    // still in L2 when the scan reaches it (1 GiB of F32, scan --nan-inf-only: 0.09-0.11 s a
    // process against 0.10-0.13 s with 4 MiB pieces, 12 of 12 alternated rounds faster;
    // tests/bench/analysis/RESULTS.md).
    std::uint64_t pieceBytes() const override { return 1 << 20; }

private:
    Result<void> sizeUnchanged(std::uint64_t offset) const;
    MappedFile(QString path, int fd, std::uint64_t size, void* map, dev_t dev, ino_t ino, qint64 mtimeNs);

    QString m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
    void* m_map = nullptr;
    dev_t m_dev = 0;
    ino_t m_ino = 0;
    qint64 m_mtimeNs = 0;
    int m_guardSlot = -1; // SigbusGuard slot of the mapping; -1: view() is not offered
    // Released ranges are dropped 64 MiB at a time: the most a finished reader of views leaves
    // mapped.
    static constexpr std::uint64_t kReleaseBatchBytes = 64u << 20;
    std::unique_ptr<PageReleaser> m_releaser;
};

} // namespace ts
