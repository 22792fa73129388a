#pragma once

#include "base/Result.h"
#include "checkpoint/Checkpoint.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace ts {

// The files a save reads from, so that it never writes over one of them. A path is an input
// when it is the same file on disk (device and inode, symbolic links followed), however it is
// spelled: another relative path, a symlink to the input, a hard link to it. Export, convert and
// the GUI's export ask this before they write; --force never overrides it.
class InputFiles {
public:
    InputFiles() = default;
    explicit InputFiles(QStringList paths) : m_paths(std::move(paths)) {}
    static InputFiles of(const Checkpoint& model);
    static InputFiles of(const std::vector<std::shared_ptr<const Checkpoint>>& models);

    const QStringList& paths() const { return m_paths; }
    // The input that `path` is (as the input was named when it was opened), or an empty string.
    // Asked just before writing: the files are compared as they are on disk now.
    QString inputAt(const QString& path) const;
    // An InvalidArgument error naming `path` and the input it is; `advice` ends the sentence.
    Result<void> refuseOverwrite(const QString& path, const QString& advice) const;

private:
    QStringList m_paths;
};

} // namespace ts
