#pragma once

#include "base/Result.h"
#include "format/Header.h"

#include <QByteArray>
#include <QString>

namespace ts {

// Turns the JSON text of a header into tensors and metadata with serde's rules as the reference
// applies them (SPEC-NOTES section 2.4-2.5): duplicate tensor names keep the last entry, extra
// tensor fields are ignored, a tensor may be a 3-element array, a dtype may be {"F32": null},
// "__metadata__" may be null. Each of these leniencies is recorded as a warning, because another
// parser may read the same bytes differently. Tensors come back in header order (last entry of
// each name), not yet validated against the data layout.
//
// `json` must have simdjson's padding available after `size` bytes.
Result<Header> readHeaderSchema(const char* json, std::size_t size, std::size_t capacity,
                                const QString& file);

// The same through the simdjson DOM only, without HeaderScanner in front: what the scanner's
// result must equal wherever it gives one (tst_header_scanner).
Result<Header> readHeaderSchemaWithDom(const char* json, std::size_t size, std::size_t capacity,
                                       const QString& file);

} // namespace ts
