#pragma once

#include "format/Metadata.h"
#include "format/TensorInfo.h"

#include <QByteArray>

#include <optional>
#include <vector>

namespace ts {

// The header exactly as the reference writer produces it (SPEC-NOTES section 4): compact JSON,
// "__metadata__" first when present, tensors in the order given (buffer order), serde_json's
// string escaping, padded with spaces to a multiple of 8, preceded by the u64 length. `slack`
// adds that many spaces (before rounding) so later metadata edits can be saved in place.
QByteArray serializeHeader(const std::vector<TensorInfo>& tensorsInBufferOrder,
                           const std::optional<Metadata>& metadata, std::uint64_t slack = 0);

// serde_json's escaping of a string, quotes included.
void appendJsonString(QByteArray& out, const QString& text);

} // namespace ts
