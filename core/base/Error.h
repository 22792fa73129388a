#pragma once

#include "base/ErrorCode.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace ts {

// An expected failure, carried as a value. `message` is one sentence a user understands; the
// other fields let a UI link the error to a tensor or a byte position.
struct Error {
    ErrorCode code = ErrorCode::IoError;
    QString message;
    QString file;
    QString tensor;
    std::optional<std::uint64_t> offset; // absolute byte offset in the file, where one applies

    // "file: message [Code]"; what the CLI prints and the window shows.
    QString toString() const;
};

Error makeError(ErrorCode code, const QString& file, const QString& message, const QString& tensor = {},
                std::optional<std::uint64_t> offset = std::nullopt);

} // namespace ts
