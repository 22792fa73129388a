#pragma once

#include "base/Diagnostic.h"
#include "base/NameIndex.h"
#include "base/Result.h"
#include "checkpoint/CheckpointOpenOptions.h"
#include "checkpoint/CheckpointPart.h"
#include "checkpoint/CheckpointTensors.h"
#include "format/Metadata.h"
#include "format/RawHeader.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <QByteArray>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace ts {

class SafetensorsFile;
struct ShardIndex;

// What a checkpoint supports beyond being read. The window enables its actions from this, the CLI
// refuses a command with a sentence, and a new format says here what it can do.
struct CheckpointCapabilities {
    bool editMetadata = false; // its metadata can be changed and saved (one safetensors file)
    bool saveInPlace = false;  // a save may rewrite the header in place behind a journal
    bool convertFrom = false;  // Converter and TensorExporter may read its tensors
    QString convertRefusal;    // when convertFrom is false: why, in one sentence
};

// What a user opens: one model, whatever its format and wherever its bytes are. The interface
// every view, the analysis, the conversion and the CLI are written against. Implementations:
// SafetensorsCheckpoint (one .safetensors file) and ShardedCheckpoint (the shards an index or a
// folder names). A new format (PyTorch pickles) is one more implementation chosen in open(); a new
// source (HTTP ranges) is one more ByteSource behind the parts; CheckpointLocator turns what the
// user gave into the parts to read.
class Checkpoint {
public:
    enum class Kind { SingleFile, IndexedShards, FolderOfShards };

    virtual ~Checkpoint();
    Checkpoint(const Checkpoint&) = delete;
    Checkpoint& operator=(const Checkpoint&) = delete;

    // Opens a file, a shard index .json or a folder (CheckpointLocator decides which parts).
    static Result<std::shared_ptr<const Checkpoint>> open(const QString& location,
                                                          const CheckpointOpenOptions& options = {});

    virtual QString formatName() const = 0; // "safetensors"
    virtual CheckpointCapabilities capabilities() const = 0;
    // The header text of the first part, for display.
    virtual RawHeader rawHeader(std::uint64_t cap) const = 0;
    // The safetensors file behind a single-file checkpoint, which a metadata save rewrites; null
    // for every other kind (capabilities().editMetadata says the same).
    virtual std::shared_ptr<const SafetensorsFile> safetensorsFile() const { return nullptr; }
    // The index of a sharded checkpoint, or null.
    virtual const ShardIndex* shardIndex() const { return nullptr; }

    Kind kind() const { return m_kind; }
    bool isSharded() const { return m_kind != Kind::SingleFile; }
    const QString& path() const { return m_path; } // what was opened
    QString displayName() const;                   // file or folder name
    const std::vector<CheckpointPart>& parts() const { return m_parts; }
    const CheckpointTensors& tensors() const { return m_tensors; }
    const std::optional<Metadata>& metadata() const { return m_metadata; }
    // Every part's warnings (prefixed with the part's name when there are several), plus the
    // checkpoint's own.
    const std::vector<Diagnostic>& warnings() const { return m_warnings; }
    // Every local file the checkpoint was read from: each part, then an index .json if there is
    // one. What a save must never write over (InputFiles), and what the window watches.
    QStringList files() const;

    int indexOf(const QString& name) const;
    // Where the tensor's bytes are. A format whose tensors are not one range of a part (a strided
    // view in a PyTorch checkpoint) gives a source of its own here.
    virtual TensorLocation location(int tensor) const;
    std::uint64_t byteOffset(int tensor) const { return m_tensors[static_cast<std::size_t>(tensor)].offset; }
    const CheckpointPart& partOf(int tensor) const
    {
        return m_parts[static_cast<std::size_t>(m_tensors.partOf(static_cast<std::size_t>(tensor)))];
    }
    std::uint64_t totalFileBytes() const;
    std::uint64_t totalTensorBytes() const;
    std::uint64_t totalParameters() const;
    std::uint64_t headerBytes() const; // sum over parts of the bytes before their data
    // True when any part changed on disk since it was opened.
    bool changedOnDisk() const;

protected:
    Checkpoint(Kind kind, QString path);
    // Adds a part and its tensors (data offsets relative to `dataStart` in the part), kept by
    // reference rather than copied: pass the list its file holds (an aliasing shared_ptr). Fails
    // with DuplicateTensor when a name is already held by another part.
    Result<void> addPart(CheckpointPart part, std::shared_ptr<const std::vector<TensorInfo>> tensors,
                         std::uint64_t dataStart, const std::vector<Diagnostic>& warnings);
    void setMetadata(std::optional<Metadata> metadata) { m_metadata = std::move(metadata); }
    void addWarning(Diagnostic d) { m_warnings.push_back(std::move(d)); }
    void addExtraFile(const QString& path) { m_extraFiles << path; }

private:
    Kind m_kind;
    QString m_path;
    std::vector<CheckpointPart> m_parts;
    CheckpointTensors m_tensors;
    NameIndex m_byName;
    std::optional<Metadata> m_metadata;
    std::vector<Diagnostic> m_warnings;
    QStringList m_extraFiles;
};

} // namespace ts
