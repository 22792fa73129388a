#pragma once

#include "checkpoint/Checkpoint.h"
#include "pickle/PickleAudit.h"
#include "pickle/PickleLimits.h"
#include "pickle/TorchContents.h"

#include <memory>

namespace ts {

// A PyTorch pickle checkpoint (.bin .pt .pth .ckpt: the zip layout, the legacy stacked pickles,
// the tar layout, a TorchScript archive, or a plain pickle) as a checkpoint, read by the pickle
// reader of core/pickle, which runs nothing. One part, the file; each tensor's bytes are a range
// of it (a stored zip member is mapped in place) or, for a strided view or a big-endian
// storage, a TensorViewSource over it. The findings (every global, what it would do, every
// structural oddity) are its warnings. Read-only; converting is allowed when the file would run
// no code and has no structural problem, or has only those and the opener allowed them.
class PyTorchCheckpoint final : public Checkpoint {
public:
    // True when torch.load would read this file as a pickle checkpoint (not a safetensors file).
    static bool recognizes(const QString& file);
    static Result<std::shared_ptr<const Checkpoint>> open(const QString& file, const QString& openedAs = {},
                                                          const CheckpointOpenOptions& options = {},
                                                          const pickle::PickleLimits& limits = {});
    // Bytes from elsewhere (a fuzzer, a test), named `name`.
    static Result<std::shared_ptr<const PyTorchCheckpoint>>
    fromSource(std::shared_ptr<const ByteSource> source, const QString& name, const QString& localPath,
               const CheckpointOpenOptions& options = {}, const pickle::PickleLimits& limits = {});

    QString formatName() const override { return pickle::torchLayoutName(m_layout); }
    CheckpointCapabilities capabilities() const override;
    RawHeader rawHeader(std::uint64_t cap) const override;
    TensorLocation location(int tensor) const override;

    pickle::TorchLayout layout() const { return m_layout; }
    const std::vector<pickle::GlobalUse>& globals() const { return m_globals; }
    // warnings(), each with what it means for the file (parallel to warnings()).
    const std::vector<pickle::FindingKind>& findingKinds() const { return m_kinds; }
    bool runsCode() const { return m_runsCode; }
    bool hasStructuralProblems() const { return m_structural; }
    const QStringList& members() const { return m_members; }
    const pickle::TorchTensor& torchTensor(int tensor) const
    {
        return m_torchTensors[static_cast<std::size_t>(tensor)];
    }

private:
    PyTorchCheckpoint(QString path, const CheckpointOpenOptions& options)
        : Checkpoint(Kind::SingleFile, std::move(path)), m_options(options)
    {
    }

    CheckpointOpenOptions m_options;
    pickle::TorchLayout m_layout = pickle::TorchLayout::Zip;
    std::vector<pickle::GlobalUse> m_globals;
    std::vector<pickle::FindingKind> m_kinds;
    std::vector<pickle::TorchTensor> m_torchTensors;
    std::vector<std::shared_ptr<const ByteSource>> m_views; // per tensor: null, or the gathering source
    std::vector<pickle::PickleStream> m_pickles;
    QStringList m_members;
    bool m_runsCode = false;
    bool m_structural = false;
    QString m_codeReason;
    QString m_structureReason;
};

} // namespace ts
