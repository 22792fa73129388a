#pragma once

#include <QByteArray>
#include <QString>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace ts::remote {

class Transfer;

// Remote bytes kept on disk between runs, bounded: reading never writes, except here, in the
// user's cache folder (RemoteSettings::cacheDir, created owner-only). One folder per file
// version (its key: the URL, size and validator, hashed), one file per aligned block plus the
// header's bytes; least recently used files go first when the folder passes its size. Files are
// written to a temporary name and renamed, so a killed process or a second instance never sees
// half a block; a block file whose size or mark is wrong is ignored. Writes happen on a thread
// of their own so the network thread never waits for a disk. Thread-safe.
class BlockCache {
public:
    BlockCache(QString dir, std::uint64_t limitBytes);
    ~BlockCache(); // what is still queued is dropped: it is a cache
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    bool enabled() const;
    std::uint64_t limit() const;
    void setLimit(std::uint64_t bytes); // 0 turns the cache off; a smaller bound trims at once
    const QString& dir() const { return m_dir; }

    static QByteArray keyFor(const QString& url, std::uint64_t size, const QByteArray& validator);

    bool has(const QByteArray& key, std::uint64_t block) const;
    // The block's bytes when the cache holds exactly `length` of them.
    std::optional<std::vector<std::byte>> load(const QByteArray& key, std::uint64_t block,
                                               std::uint64_t length) const;
    std::optional<std::vector<std::byte>> loadHead(const QByteArray& key) const;

    // Queued for the writer: every whole block of a finished transfer, or the head.
    void storeBlocks(const std::shared_ptr<Transfer>& transfer);
    void storeHead(const QByteArray& key, std::vector<std::byte> bytes);
    // Blocks until what is queued now is written (tests, and the bench's second run).
    void flush();
    // Bytes on disk now, and removing all of it (Preferences' Clear button).
    std::uint64_t usedBytes() const;
    void clear();

private:
    struct Job {
        std::shared_ptr<Transfer> transfer; // blocks of it
        QByteArray key;                     // or a head
        std::vector<std::byte> head;
    };
    void run();
    void write(const Job& job);
    bool writeFile(const QString& path, const std::byte* bytes, std::uint64_t length);
    void trim(std::uint64_t target);
    QString folder(const QByteArray& key) const;
    std::optional<std::vector<std::byte>> loadFile(const QString& path,
                                                   std::optional<std::uint64_t> length) const;

    const QString m_dir;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::uint64_t m_limit;
    std::deque<Job> m_queue;
    std::uint64_t m_queuedBytes = 0;
    bool m_writing = false;
    bool m_stop = false;
    std::optional<std::uint64_t> m_used; // what our trims saw last, plus our writes since
    std::thread m_writer;                // last: starts once the members above exist
};

} // namespace ts::remote
