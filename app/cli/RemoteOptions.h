#pragma once

#include <QCommandLineParser>

#include <optional>

namespace ts::cli {

// Applies the options that steer reading models from URLs (--cache-size) to the process's
// RemoteSession. Returns ExitUsage after explaining a bad value, nullopt otherwise.
std::optional<int> applyRemoteOptions(const QCommandLineParser& parser);

} // namespace ts::cli
