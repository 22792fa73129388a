#pragma once

#include "base/Result.h"
#include "convert/ConvertOptions.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ts {

// The convert options as a user typed them, one entry per occurrence of an option: what
// `tensorscope-cli convert` takes from its command line (app/cli/CommandConvert.cpp) and the
// Convert dialog from its fields, one line a value (ui/conversion/ConvertDialog.cpp). Both hand
// them to parseConvertOptions, so the same text means the same conversion in both.
struct ConvertOptionTexts {
    std::optional<QString> dtype;     // --dtype D; nullopt keeps every dtype
    QStringList dtypeFor;             // --dtype-for GLOB=D
    QStringList include;              // --include GLOB
    QStringList exclude;              // --exclude GLOB
    QStringList rename;               // --rename REGEX=REPLACEMENT
    QStringList set;                  // --set KEY=VALUE
    QStringList unset;                // --unset KEY
    std::optional<QString> shardSize; // --shard-size SIZE; nullopt writes one file
};

// Reads the options by one set of rules:
// - D is a name of DtypeConverter::targets() in any case ("bf16"), spaces around it ignored.
// - GLOB=D splits at the last '=': a dtype never contains one, a glob may (tensor names do).
// - REGEX=REPLACEMENT splits at the first '=': a regular expression can write '=' as \x3D, a
//   replacement has no escape for it, so the replacement must be the side that may hold '='.
// - KEY=VALUE splits at the first '=' as `tensorscope-cli meta --set` does: values (base64,
//   URLs) hold '=' far more often than keys.
// - Spaces at the ends of a GLOB of --dtype-for and of a KEY are dropped ("*.bias = F32",
//   "format = pt"), as the dialog always did; a value after '=' is kept exactly as typed, and so
//   are regexes, replacements and the globs of --include and --exclude.
// - SIZE as parseByteSize (convert/ByteSize.h).
// The error (InvalidArgument) is one sentence that names the option and quotes what was typed.
// ConvertOptions::headerSlack is left at 0: it is a save preference, not a conversion option.
Result<ConvertOptions> parseConvertOptions(const ConvertOptionTexts& texts);

// DtypeConverter::targets() as users type them: "F32", "F16", "BF16", "F64", "F8_E4M3", "F8_E5M2".
QStringList convertDtypeNames();

} // namespace ts
