#pragma once

#include <QString>

namespace ts::cli {

// tensorscope-cli(1) in roff, from commandTable(): what `tensorscope-cli --help-man` prints and the
// build installs.
QString cliManPage();

} // namespace ts::cli
