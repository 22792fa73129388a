#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace ts {

enum class Severity { Info, Warning, Error };

QString severityName(Severity severity);

// Something worth a user's attention that does not stop the file from opening: a parser
// differential, a layout oddity, or (from the analysis engine) a NaN in a tensor. `code` is
// stable (scripts match on it); `message` is one sentence.
struct Diagnostic {
    QString code;
    Severity severity = Severity::Warning;
    QString message;
    QString tensor;                      // the tensor concerned, if any
    std::optional<std::uint64_t> offset; // absolute byte offset in the file, if any
};

} // namespace ts
