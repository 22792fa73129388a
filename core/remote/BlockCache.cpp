#include "remote/BlockCache.h"

#include "remote/Transfer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cstring>
#include <utime.h>

namespace ts::remote {
namespace {

// Every cached file starts with this mark and the length of what follows it.
constexpr char kMark[8] = {'T', 'S', 'B', 'L', 'K', '0', '0', '1'};
constexpr qint64 kPrefix = 16;
// What may wait for the writer; past it new blocks are not cached (a slow disk must not hold
// the network's memory).
constexpr std::uint64_t kMaxQueued = 256ull << 20;

QString blockName(std::uint64_t block)
{
    return QStringLiteral("%1.blk").arg(block, 8, 10, QLatin1Char('0'));
}

const QString kHeadName = QStringLiteral("head.blk");

} // namespace

BlockCache::BlockCache(QString dir, std::uint64_t limitBytes)
    : m_dir(std::move(dir)), m_limit(m_dir.isEmpty() ? 0 : limitBytes), m_writer([this] { run(); })
{
}

BlockCache::~BlockCache()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_writer.join();
}

bool BlockCache::enabled() const
{
    std::lock_guard lock(m_mutex);
    return m_limit > 0;
}

std::uint64_t BlockCache::limit() const
{
    std::lock_guard lock(m_mutex);
    return m_limit;
}

void BlockCache::setLimit(std::uint64_t bytes)
{
    {
        std::lock_guard lock(m_mutex);
        m_limit = m_dir.isEmpty() ? 0 : bytes;
    }
    // Trimming on the caller's thread: it is a settings change, not a read.
    if (!m_dir.isEmpty())
        trim(bytes);
}

QByteArray BlockCache::keyFor(const QString& url, std::uint64_t size, const QByteArray& validator)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(url.toUtf8());
    const QByteArray rest = "\n" + QByteArray::number(size) + "\n" + validator;
    hash.addData(rest);
    return hash.result().toHex().left(40);
}

QString BlockCache::folder(const QByteArray& key) const
{
    return m_dir + QLatin1Char('/') + QString::fromLatin1(key);
}

std::optional<std::vector<std::byte>> BlockCache::loadFile(const QString& path,
                                                           std::optional<std::uint64_t> length) const
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    char prefix[kPrefix];
    if (f.read(prefix, kPrefix) != kPrefix || std::memcmp(prefix, kMark, sizeof kMark) != 0)
        return std::nullopt;
    std::uint64_t stored = 0;
    std::memcpy(&stored, prefix + 8, 8);
    if ((length && stored != *length) || static_cast<std::uint64_t>(f.size() - kPrefix) != stored)
        return std::nullopt;
    std::vector<std::byte> bytes(static_cast<std::size_t>(stored));
    if (f.read(reinterpret_cast<char*>(bytes.data()), static_cast<qint64>(stored)) !=
        static_cast<qint64>(stored))
        return std::nullopt;
    // Used now: the least recently used files are the ones a trim removes.
    ::utime(QFile::encodeName(path).constData(), nullptr);
    return bytes;
}

bool BlockCache::has(const QByteArray& key, std::uint64_t block) const
{
    if (!enabled() || key.isEmpty())
        return false;
    return QFileInfo::exists(folder(key) + QLatin1Char('/') + blockName(block));
}

std::optional<std::vector<std::byte>> BlockCache::load(const QByteArray& key, std::uint64_t block,
                                                       std::uint64_t length) const
{
    if (!enabled() || key.isEmpty())
        return std::nullopt;
    return loadFile(folder(key) + QLatin1Char('/') + blockName(block), length);
}

std::optional<std::vector<std::byte>> BlockCache::loadHead(const QByteArray& key) const
{
    if (!enabled() || key.isEmpty())
        return std::nullopt;
    return loadFile(folder(key) + QLatin1Char('/') + kHeadName, std::nullopt);
}

void BlockCache::storeBlocks(const std::shared_ptr<Transfer>& transfer)
{
    if (transfer->request().cacheKey.isEmpty())
        return;
    {
        std::lock_guard lock(m_mutex);
        if (m_limit == 0 || m_stop || m_queuedBytes + transfer->capacity() > kMaxQueued)
            return;
        m_queuedBytes += transfer->capacity();
        m_queue.push_back(Job{transfer, {}, {}});
    }
    m_wake.notify_all();
}

void BlockCache::storeHead(const QByteArray& key, std::vector<std::byte> bytes)
{
    if (key.isEmpty())
        return;
    {
        std::lock_guard lock(m_mutex);
        if (m_limit == 0 || m_stop || m_queuedBytes + bytes.size() > kMaxQueued)
            return;
        m_queuedBytes += bytes.size();
        m_queue.push_back(Job{nullptr, key, std::move(bytes)});
    }
    m_wake.notify_all();
}

void BlockCache::flush()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_queue.empty() && !m_writing; });
}

void BlockCache::run()
{
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        // What was queued before the stop is still written: a command that exits right after its
        // scan would otherwise leave its last blocks out of the cache (bounded by kMaxQueued).
        if (m_stop && m_queue.empty())
            return;
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        m_writing = true;
        lock.unlock();
        write(job);
        const std::uint64_t bytes = job.transfer ? job.transfer->capacity() : job.head.size();
        job = {};
        lock.lock();
        m_queuedBytes -= bytes;
        m_writing = false;
        if (m_queue.empty())
            m_idle.notify_all();
    }
}

bool BlockCache::writeFile(const QString& path, const std::byte* bytes, std::uint64_t length)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    char prefix[kPrefix];
    std::memcpy(prefix, kMark, sizeof kMark);
    std::memcpy(prefix + 8, &length, 8);
    f.write(prefix, kPrefix);
    f.write(reinterpret_cast<const char*>(bytes), static_cast<qint64>(length));
    return f.commit();
}

void BlockCache::write(const Job& job)
{
    const QByteArray key = job.transfer ? job.transfer->request().cacheKey : job.key;
    const QString dir = folder(key);
    // The cache may hold what users read from private repositories: theirs alone.
    if (!QFileInfo::exists(m_dir)) {
        QDir().mkpath(m_dir);
        QFile::setPermissions(m_dir,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    if (!QDir().mkpath(dir))
        return;
    std::uint64_t written = 0;
    if (job.transfer) {
        const Transfer::Request& r = job.transfer->request();
        const std::uint64_t block = r.blockBytes;
        for (std::uint64_t at = 0; at < r.length && block > 0; at += block) {
            const std::uint64_t n = std::min(block, r.length - at);
            if (writeFile(dir + QLatin1Char('/') + blockName((r.begin + at) / block), job.transfer->data(at),
                          n))
                written += n + kPrefix;
        }
    } else if (writeFile(dir + QLatin1Char('/') + kHeadName, job.head.data(), job.head.size())) {
        written += job.head.size() + kPrefix;
    }
    std::uint64_t limit = 0;
    bool over = false;
    {
        std::lock_guard lock(m_mutex);
        limit = m_limit;
        if (m_used)
            *m_used += written;
        over = !m_used || *m_used > limit;
    }
    if (over)
        trim(limit);
}

void BlockCache::trim(std::uint64_t target)
{
    struct Entry {
        QString path;
        qint64 size;
        qint64 used;
    };
    std::vector<Entry> files;
    std::uint64_t total = 0;
    QDirIterator it(m_dir, {QStringLiteral("*.blk")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        files.push_back({info.filePath(), info.size(), info.lastModified().toMSecsSinceEpoch()});
        total += static_cast<std::uint64_t>(info.size());
    }
    if (total > target) {
        // Down to 90%: a trim per write would rescan the folder on every block.
        const std::uint64_t goal = target / 10 * 9;
        std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
        for (const Entry& e : files) {
            if (total <= goal)
                break;
            if (QFile::remove(e.path))
                total -= static_cast<std::uint64_t>(e.size);
            const QString parent = QFileInfo(e.path).absolutePath();
            QDir().rmdir(parent); // only when empty
        }
    }
    std::lock_guard lock(m_mutex);
    m_used = total;
}

std::uint64_t BlockCache::usedBytes() const
{
    std::uint64_t total = 0;
    if (m_dir.isEmpty())
        return 0;
    QDirIterator it(m_dir, {QStringLiteral("*.blk")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        total += static_cast<std::uint64_t>(QFileInfo(it.next()).size());
    return total;
}

void BlockCache::clear()
{
    if (m_dir.isEmpty())
        return;
    flush();
    trim(0);
}

} // namespace ts::remote
