#pragma once

#include <QString>

namespace ts::cli {

// Shell completion scripts for tensorscope-cli, printed from commandTable(): the commands, each
// command's options, files and folders for paths, the dtypes for --dtype. The build writes them with
// `tensorscope-cli --completion SHELL` and installs them where Debian's shells look.
class Completions {
public:
    static QString bash();
    static QString zsh();
    static QString fish();
    // bash, zsh or fish; empty for any other name.
    static QString forShell(const QString& shell);
};

} // namespace ts::cli
