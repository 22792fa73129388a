#include "write/InputFiles.h"

#include <QFile>

#include <sys/stat.h>

namespace ts {
namespace {

// stat() and not lstat(): an output that is a symlink to an input writes through to the input
// for any writer that opens the path, so it is the input.
bool identify(const QString& path, struct stat& st)
{
    return !path.isEmpty() && ::stat(QFile::encodeName(path).constData(), &st) == 0;
}

} // namespace

InputFiles InputFiles::of(const Checkpoint& model)
{
    return InputFiles(model.files());
}

InputFiles InputFiles::of(const std::vector<std::shared_ptr<const Checkpoint>>& models)
{
    QStringList paths;
    for (const auto& model : models)
        paths << model->files();
    return InputFiles(std::move(paths));
}

QString InputFiles::inputAt(const QString& path) const
{
    struct stat out {};
    if (!identify(path, out))
        return {}; // nothing there yet (or unreadable): writing it cannot destroy an input
    for (const QString& input : m_paths) {
        struct stat in {};
        if (identify(input, in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return input;
    }
    return {};
}

Result<void> InputFiles::refuseOverwrite(const QString& path, const QString& advice) const
{
    const QString input = inputAt(path);
    if (input.isEmpty())
        return {};
    const QString which = input == path ? QStringLiteral("is one of the input files")
                                        : QStringLiteral("is the input file %1").arg(input);
    return makeError(ErrorCode::InvalidArgument, path, which + QStringLiteral("; ") + advice);
}

} // namespace ts
