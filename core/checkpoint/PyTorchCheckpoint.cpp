#include "checkpoint/PyTorchCheckpoint.h"

#include "io/MappedFile.h"
#include "pickle/PickleDisassembly.h"
#include "pickle/TensorViewSource.h"
#include "pickle/TorchCheckpointReader.h"

#include <QFileInfo>

namespace ts {

bool PyTorchCheckpoint::recognizes(const QString& file)
{
    auto mapped = MappedFile::open(file);
    if (!mapped)
        return false;
    return pickle::sniffPickleFormat(**mapped, file) != pickle::PickleFormat::None;
}

Result<std::shared_ptr<const Checkpoint>> PyTorchCheckpoint::open(const QString& file,
                                                                  const QString& openedAs,
                                                                  const CheckpointOpenOptions& options,
                                                                  const pickle::PickleLimits& limits)
{
    auto mapped = MappedFile::open(file);
    if (!mapped)
        return mapped.error();
    auto checkpoint = fromSource(mapped.value(), openedAs.isEmpty() ? file : openedAs, file, options, limits);
    if (!checkpoint)
        return checkpoint.error();
    return std::shared_ptr<const Checkpoint>(checkpoint.value());
}

Result<std::shared_ptr<const PyTorchCheckpoint>>
PyTorchCheckpoint::fromSource(std::shared_ptr<const ByteSource> source, const QString& name,
                              const QString& localPath, const CheckpointOpenOptions& options,
                              const pickle::PickleLimits& limits)
{
    auto read = pickle::readTorchCheckpoint(*source, limits);
    if (!read)
        return read.error();
    pickle::TorchContents& contents = read.value();
    std::shared_ptr<PyTorchCheckpoint> c(new PyTorchCheckpoint(name, options));
    c->m_layout = contents.layout;
    c->m_globals = contents.audit.globals();
    c->m_kinds = contents.audit.kinds();
    c->m_runsCode = contents.audit.runsCode();
    c->m_structural = contents.audit.hasStructural();
    c->m_codeReason = contents.audit.firstCodeReason();
    c->m_structureReason = contents.audit.firstStructuralReason();
    c->m_pickles = std::move(contents.pickles);
    c->m_members = std::move(contents.members);

    CheckpointPart part;
    part.location = source->displayName();
    part.name = QFileInfo(part.location).fileName();
    if (part.name.isEmpty())
        part.name = part.location;
    part.localPath = localPath;
    part.source = source;
    part.headerBytes = contents.pickleBytes;
    part.dataBytes = contents.storageBytes;

    std::vector<TensorInfo> infos;
    infos.reserve(contents.tensors.size());
    for (const pickle::TorchTensor& t : contents.tensors) {
        TensorInfo info;
        info.name = t.name;
        info.dtype = t.dtype;
        info.shape = t.shape;
        info.begin = t.firstByte();
        info.end = info.begin + t.byteSize();
        infos.push_back(std::move(info));
        const bool inPlace = t.contiguous() && !t.bigEndian;
        c->m_views.push_back(inPlace ? nullptr : std::make_shared<pickle::TensorViewSource>(source, t));
    }
    c->m_torchTensors = std::move(contents.tensors);
    // TensorResolver gave every name once, so no part can hold a name twice.
    (void)c->addPart(std::move(part), std::make_shared<const std::vector<TensorInfo>>(std::move(infos)), 0,
                     contents.audit.diagnostics());
    return std::shared_ptr<const PyTorchCheckpoint>(c);
}

TensorLocation PyTorchCheckpoint::location(int tensor) const
{
    const auto& view = m_views[static_cast<std::size_t>(tensor)];
    if (!view)
        return Checkpoint::location(tensor);
    return TensorLocation{view, 0, view->size()};
}

CheckpointCapabilities PyTorchCheckpoint::capabilities() const
{
    CheckpointCapabilities c;
    const QString file = displayName();
    if (m_runsCode) {
        c.convertRefusal =
            QStringLiteral("%1 would run code when loaded with torch.load, so Tensorscope does not "
                           "convert it: %2")
                .arg(file, m_codeReason);
    } else if (m_structural && !m_options.allowUnsafeStructure) {
        c.convertRefusal = QStringLiteral("%1 is built so that readers may disagree about what it holds: %2 "
                                          "(convert --allow-unsafe-structure converts it anyway)")
                               .arg(file, m_structureReason);
    } else if (tensors().empty()) {
        c.convertRefusal = QStringLiteral("%1 holds no tensor Tensorscope can read").arg(file);
    } else {
        c.convertFrom = true;
    }
    return c;
}

RawHeader PyTorchCheckpoint::rawHeader(std::uint64_t cap) const
{
    RawHeader h;
    h.preformatted = true;
    h.source = parts().front().location;
    if (m_pickles.empty())
        return h;
    const pickle::PickleStream& main = m_pickles.front();
    h.source = QStringLiteral("%1 (%2)").arg(parts().front().location, main.label);
    h.declaredBytes = main.length;
    std::string buffer;
    std::span<const std::byte> bytes;
    if (!main.inflated.empty()) {
        bytes = std::as_bytes(std::span(main.inflated.data(), main.inflated.size()));
    } else {
        const ByteSource& source = *parts().front().source;
        const std::uint64_t length = std::min<std::uint64_t>(main.length, 64u << 20);
        buffer.resize(length);
        if (!source.read(main.offset, std::as_writable_bytes(std::span(buffer.data(), buffer.size()))))
            return h;
        bytes = std::as_bytes(std::span(buffer.data(), buffer.size()));
    }
    h.bytes = pickle::disassemble(bytes, main.inflated.empty() ? main.offset : 0, cap);
    return h;
}

} // namespace ts
