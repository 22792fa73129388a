#include "report/FileHasher.h"

#include "checkpoint/Checkpoint.h"
#include "io/MappedFile.h"
#include "io/ReadAhead.h"
#include "report/Sha256.h"

#include <QFileInfo>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace ts {
namespace {

// 8 MiB reads: large enough that a read is a few syscalls and the hash never waits on the
// kernel's readahead, small enough that two buffers per file stay cheap.
constexpr std::size_t kChunk = 8u << 20;

} // namespace

FileHasher::FileHasher(std::vector<HashInput> inputs, int threads)
    : m_inputs(std::move(inputs)), m_threads(threads)
{
}

void FileHasher::setProgressCallback(Progress progress, int intervalMs)
{
    m_progress = std::move(progress);
    m_intervalMs = std::max(1, intervalMs);
}

std::uint64_t FileHasher::totalBytes() const
{
    std::uint64_t total = 0;
    for (const HashInput& in : m_inputs)
        total += in.source->size();
    return total;
}

Result<std::vector<FileDigest>> FileHasher::run()
{
    const std::uint64_t total = totalBytes();
    std::vector<FileDigest> digests(m_inputs.size());
    std::atomic<std::uint64_t> done{0};
    std::atomic<std::size_t> next{0};
    std::optional<Error> firstError;
    std::mutex mutex;
    std::condition_variable wake;
    int threads = m_threads > 0 ? m_threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp<int>(threads, 1, static_cast<int>(std::max<std::size_t>(1, m_inputs.size())));
    int running = threads;

    auto hashOne = [&](const HashInput& in, FileDigest& out) -> Result<void> {
        Sha256 sha;
        ReadAhead::Buffers buffers;
        ReadAhead reader(*in.source, 0, in.source->size(), kChunk, buffers);
        for (;;) {
            if (m_cancel.load(std::memory_order_relaxed))
                return makeError(ErrorCode::Cancelled, in.path, QStringLiteral("hashing was cancelled"));
            auto chunk = reader.next();
            if (!chunk)
                return chunk.error();
            if (chunk->empty())
                break;
            sha.add(*chunk);
            done.fetch_add(chunk->size(), std::memory_order_relaxed);
        }
        if (in.source->changedOnDisk())
            return makeError(ErrorCode::FileChanged, in.path,
                             QStringLiteral("the file changed on disk while it was hashed; hash it again"));
        out.name = in.name;
        out.path = in.path;
        out.role = in.role;
        out.size = in.source->size();
        out.sha256 = sha.hex();
        return {};
    };

    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            for (;;) {
                {
                    std::lock_guard lock(mutex);
                    if (firstError || m_cancel.load())
                        break;
                }
                const std::size_t i = next.fetch_add(1);
                if (i >= m_inputs.size())
                    break;
                Result<void> r = hashOne(m_inputs[i], digests[i]);
                if (!r) {
                    std::lock_guard lock(mutex);
                    if (!firstError)
                        firstError = r.error();
                }
            }
            std::lock_guard lock(mutex);
            --running;
            wake.notify_all();
        });
    }
    // This thread only reports progress, throttled, until the workers are done.
    {
        const auto interval = std::chrono::milliseconds(m_intervalMs);
        std::unique_lock lock(mutex);
        while (running > 0) {
            if (!wake.wait_for(lock, interval, [&] { return running == 0; }) && m_progress) {
                lock.unlock();
                m_progress(done.load(std::memory_order_relaxed), total);
                lock.lock();
            }
        }
    }
    for (std::thread& w : workers)
        w.join();
    if (firstError)
        return *firstError;
    if (m_cancel.load())
        return makeError(ErrorCode::Cancelled, QString(), QStringLiteral("hashing was cancelled"));
    if (m_progress)
        m_progress(total, total);
    return digests;
}

Result<std::vector<HashInput>> FileHasher::inputsOf(const Checkpoint& checkpoint,
                                                    const QStringList& extraFiles)
{
    std::vector<HashInput> inputs;
    for (const CheckpointPart& part : checkpoint.parts())
        inputs.push_back({part.name, part.localPath.isEmpty() ? part.location : part.localPath,
                          QStringLiteral("weights"), part.source});
    QStringList others;
    const QStringList files = checkpoint.files();
    for (qsizetype i = static_cast<qsizetype>(checkpoint.parts().size()); i < files.size(); ++i)
        others << files[i];
    for (const QString& extra : extraFiles) {
        if (!extra.isEmpty() && QFileInfo(extra).isFile() && !others.contains(extra))
            others << extra;
    }
    for (const QString& path : others) {
        auto file = MappedFile::open(path);
        if (!file)
            return file.error();
        const bool index = path.endsWith(QLatin1String(".index.json"));
        inputs.push_back({QFileInfo(path).fileName(), path,
                          index ? QStringLiteral("shard index") : QStringLiteral("config"),
                          std::move(file.value())});
    }
    return inputs;
}

} // namespace ts
