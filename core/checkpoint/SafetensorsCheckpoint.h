#pragma once

#include "checkpoint/Checkpoint.h"
#include "format/SafetensorsFile.h"

#include <memory>

namespace ts {

// One .safetensors file as a checkpoint: one part, its header's tensors and metadata. The only
// kind whose metadata can be edited and saved, in place when the file is local.
class SafetensorsCheckpoint final : public Checkpoint {
public:
    // Opens a local file; `openedAs` is what the user opened (a folder holding only this file),
    // or empty for the file itself.
    static Result<std::shared_ptr<const Checkpoint>> open(const QString& file, const QString& openedAs = {});
    // A file already parsed. `localPath` names it on this machine (journals and leftovers beside
    // it are reported, a save may write it), or is empty for bytes from elsewhere (memory, a URL).
    static std::shared_ptr<const SafetensorsCheckpoint> fromFile(std::shared_ptr<const SafetensorsFile> file,
                                                                 const QString& localPath = {},
                                                                 const QString& openedAs = {});

    // The part a safetensors file is, with the warnings the checkpoint reports for it: the
    // header's, and for a local file what interrupted saves left beside it (SaveLeftovers).
    static CheckpointPart partOf(const SafetensorsFile& file, const QString& localPath);
    static std::vector<Diagnostic> warningsOf(const SafetensorsFile& file, const QString& localPath);
    // The file's tensor list, shared with the checkpoint rather than copied; keeps the file alive.
    static std::shared_ptr<const std::vector<TensorInfo>>
    tensorsOf(const std::shared_ptr<const SafetensorsFile>& file);

    QString formatName() const override { return QStringLiteral("safetensors"); }
    CheckpointCapabilities capabilities() const override;
    RawHeader rawHeader(std::uint64_t cap) const override;
    std::shared_ptr<const SafetensorsFile> safetensorsFile() const override { return m_file; }

private:
    SafetensorsCheckpoint(std::shared_ptr<const SafetensorsFile> file, QString path);

    std::shared_ptr<const SafetensorsFile> m_file;
};

} // namespace ts
