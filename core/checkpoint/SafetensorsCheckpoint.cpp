#include "checkpoint/SafetensorsCheckpoint.h"

#include "checkpoint/PartOpening.h"
#include "io/RemoteLocation.h"
#include "write/SaveLeftovers.h"

#include <QFileInfo>

namespace ts {

SafetensorsCheckpoint::SafetensorsCheckpoint(std::shared_ptr<const SafetensorsFile> file, QString path)
    : Checkpoint(Kind::SingleFile, std::move(path)), m_file(std::move(file))
{
}

Result<std::shared_ptr<const Checkpoint>> SafetensorsCheckpoint::open(const QString& file,
                                                                      const QString& openedAs)
{
    auto opened = openSafetensorsPart(file);
    if (!opened)
        return opened.error();
    return std::shared_ptr<const Checkpoint>(fromFile(std::move(opened->file), opened->localPath, openedAs));
}

std::shared_ptr<const SafetensorsCheckpoint>
SafetensorsCheckpoint::fromFile(std::shared_ptr<const SafetensorsFile> file, const QString& localPath,
                                const QString& openedAs)
{
    const QString path = openedAs.isEmpty() ? file->path() : openedAs;
    std::shared_ptr<SafetensorsCheckpoint> checkpoint(new SafetensorsCheckpoint(file, path));
    // A single part cannot hold a name twice: the header keeps the last declaration.
    (void)checkpoint->addPart(partOf(*file, localPath), tensorsOf(file), file->header().dataOffset(),
                              warningsOf(*file, localPath));
    checkpoint->setMetadata(file->header().metadata);
    return checkpoint;
}

CheckpointPart SafetensorsCheckpoint::partOf(const SafetensorsFile& file, const QString& localPath)
{
    CheckpointPart part;
    part.location = file.path();
    part.name = RemoteLocation::isRemote(part.location) ? RemoteLocation::fileName(part.location)
                                                        : QFileInfo(part.location).fileName();
    if (part.name.isEmpty())
        part.name = part.location;
    part.localPath = localPath;
    part.source = file.source();
    part.headerBytes = file.header().dataOffset();
    part.dataBytes = file.header().dataSize();
    return part;
}

std::shared_ptr<const std::vector<TensorInfo>>
SafetensorsCheckpoint::tensorsOf(const std::shared_ptr<const SafetensorsFile>& file)
{
    return std::shared_ptr<const std::vector<TensorInfo>>(file, &file->tensors());
}

std::vector<Diagnostic> SafetensorsCheckpoint::warningsOf(const SafetensorsFile& file,
                                                          const QString& localPath)
{
    std::vector<Diagnostic> found = file.header().warnings;
    if (!localPath.isEmpty()) {
        for (Diagnostic& d : SaveLeftovers::diagnose(localPath))
            found.push_back(std::move(d));
    }
    return found;
}

CheckpointCapabilities SafetensorsCheckpoint::capabilities() const
{
    CheckpointCapabilities c;
    const bool local = !parts().front().localPath.isEmpty();
    c.editMetadata = local;
    c.saveInPlace = local;
    c.convertFrom = true;
    return c;
}

RawHeader SafetensorsCheckpoint::rawHeader(std::uint64_t cap) const
{
    return RawHeader::ofSafetensors(*m_file->source(), cap);
}

} // namespace ts
