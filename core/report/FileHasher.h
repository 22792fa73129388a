#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ts {

class Checkpoint;

// One file of a model and its SHA-256, as the Hub lists it for an LFS file (the digest of the
// whole file's bytes).
struct FileDigest {
    QString name; // as shown: "model-00001-of-00004.safetensors", "config.json"
    QString path;
    QString role; // "weights", "shard index", "config"
    std::uint64_t size = 0;
    QString sha256;
};

struct HashInput {
    QString name;
    QString path;
    QString role;
    std::shared_ptr<const ByteSource> source;
};

// Hashes a model's files at disk speed: each file read sequentially one chunk ahead of the hash
// (ReadAhead: the read of chunk k+1 overlaps hashing chunk k), several files at once on several
// cores. run() blocks; cancel() and the progress callback are thread-safe, progress is delivered
// on run()'s thread at most every `intervalMs`. A file that changes while it is read is an
// error, never a digest of mixed bytes.
class FileHasher {
public:
    using Progress = std::function<void(std::uint64_t done, std::uint64_t total)>;

    explicit FileHasher(std::vector<HashInput> inputs, int threads = 0);
    void setProgressCallback(Progress progress, int intervalMs = 100);
    Result<std::vector<FileDigest>> run();
    void cancel() { m_cancel.store(true); }
    std::uint64_t totalBytes() const;

    // The checkpoint's parts, its index, and each of `extraFiles` that exists (config.json),
    // in that order; a file that cannot be opened is an error.
    static Result<std::vector<HashInput>> inputsOf(const Checkpoint& checkpoint,
                                                   const QStringList& extraFiles);

private:
    std::vector<HashInput> m_inputs;
    int m_threads;
    Progress m_progress;
    int m_intervalMs = 100;
    std::atomic<bool> m_cancel{false};
};

} // namespace ts
