#pragma once
// What every remote test sets up: a RemoteSession (the network thread and the opener the core
// reads URLs through) with its cache in the test's own temporary folder, so parallel tests
// never share one and nothing lands in the user's cache.

#include "remote/HttpOpener.h"
#include "remote/RemoteSettings.h"

#include <QTemporaryDir>

#include <memory>

namespace ts::test {

inline remote::RemoteSettings testSettings(const QString& cacheDir, std::uint64_t cacheBytes = 64ull << 20)
{
    remote::RemoteSettings s;
    s.cacheDir = cacheDir;
    s.cacheBytes = cacheBytes;
    s.tokenHosts = remote::RemoteSettings::defaultTokenHosts();
    s.stallTimeoutMs = 10000 * qMax(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"));
    return s;
}

} // namespace ts::test
