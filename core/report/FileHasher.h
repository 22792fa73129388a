#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "io/ByteSource.h"

#include <QString>
#include <QStringList>

#include <cstdint>
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
// cores. run() blocks; it polls the control's token between chunks (a cancel is seen within one
// 8 MiB chunk) and adds every chunk's bytes to its sink, after begin() with the bytes of all
// files. A file that changes while it is read is an error, never a digest of mixed bytes.
class FileHasher {
public:
    explicit FileHasher(std::vector<HashInput> inputs, int threads = 0);
    void setControl(JobControl control) { m_control = std::move(control); }
    Result<std::vector<FileDigest>> run();
    std::uint64_t totalBytes() const;

    // The checkpoint's parts, its index, and each of `extraFiles` that exists (config.json),
    // in that order; a file that cannot be opened is an error.
    static Result<std::vector<HashInput>> inputsOf(const Checkpoint& checkpoint,
                                                   const QStringList& extraFiles);

private:
    std::vector<HashInput> m_inputs;
    int m_threads;
    JobControl m_control;
};

} // namespace ts
