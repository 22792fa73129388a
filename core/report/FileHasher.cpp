#include "report/FileHasher.h"

#include "checkpoint/Checkpoint.h"
#include "io/MappedFile.h"
#include "io/ReadAhead.h"
#include "report/Sha256.h"

#include <QFileInfo>

#include <algorithm>
#include <atomic>
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

std::uint64_t FileHasher::totalBytes() const
{
    std::uint64_t total = 0;
    for (const HashInput& in : m_inputs)
        total += in.source->size();
    return total;
}

Result<std::vector<FileDigest>> FileHasher::run()
{
    const CancelToken& cancel = m_control.cancel;
    const ProgressSink& progress = m_control.progress;
    progress.begin(totalBytes());
    std::vector<FileDigest> digests(m_inputs.size());
    std::atomic<std::size_t> next{0};
    std::optional<Error> firstError;
    std::mutex mutex;
    int threads = m_threads > 0 ? m_threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp<int>(threads, 1, static_cast<int>(std::max<std::size_t>(1, m_inputs.size())));

    auto hashOne = [&](const HashInput& in, FileDigest& out) -> Result<void> {
        Sha256 sha;
        ReadAhead::Buffers buffers;
        ReadAhead reader(*in.source, 0, in.source->size(), kChunk, buffers);
        for (;;) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, in.path, QStringLiteral("hashing was cancelled"));
            auto chunk = reader.next();
            if (!chunk)
                return chunk.error();
            if (chunk->empty())
                break;
            sha.add(*chunk);
            progress.add(chunk->size());
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
    auto work = [&] {
        for (;;) {
            {
                std::lock_guard lock(mutex);
                if (firstError || cancel.isCancelled())
                    return;
            }
            const std::size_t i = next.fetch_add(1);
            if (i >= m_inputs.size())
                return;
            Result<void> r = hashOne(m_inputs[i], digests[i]);
            if (!r) {
                std::lock_guard lock(mutex);
                if (!firstError)
                    firstError = r.error();
            }
        }
    };
    // run()'s own thread is one of the workers.
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t)
        workers.emplace_back(work);
    work();
    for (std::thread& w : workers)
        w.join();
    if (firstError)
        return *firstError;
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, QString(), QStringLiteral("hashing was cancelled"));
    progress.flush();
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
