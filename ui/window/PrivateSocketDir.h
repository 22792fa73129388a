#pragma once

#include "base/Result.h"

#include <QString>

#include <optional>

#include <sys/types.h>

namespace ts::ui {

// A folder where only this user can create files, for sockets other users must not squat:
// $XDG_RUNTIME_DIR when it is ours and private, else <temp>/tensorscope-<uid>, created 0700 and
// then checked (a directory, not a symlink, owned by us, mode exactly 0700). An error when neither
// can be trusted; the caller then goes without the socket.
Result<QString> privateSocketDir();

// Checks `path` with lstat as privateSocketDir() does; the error says what is wrong with it.
Result<void> checkPrivateDir(const QString& path);

// The effective uid of the process at the other end of a connected Unix socket (SO_PEERCRED),
// or nothing when the descriptor is not one.
std::optional<uid_t> peerUid(qintptr descriptor);

} // namespace ts::ui
