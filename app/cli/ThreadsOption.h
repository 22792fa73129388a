#pragma once

#include <QCommandLineParser>

#include <optional>

namespace ts::cli {

// Reads --threads N (1 to 256) into `threads`, left as it is when the option is absent. Returns
// ExitUsage after explaining a bad value, nullopt otherwise: scan, diff and report share it.
std::optional<int> readThreadsOption(const QCommandLineParser& parser, int& threads);

} // namespace ts::cli
