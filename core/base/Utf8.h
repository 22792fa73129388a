#pragma once

#include <cstddef>
#include <optional>

namespace ts {

// Position of the first byte that breaks strict UTF-8 (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or nullopt. Only used to point at the error once simdjson's fast
// validator has said the header is bad.
std::optional<std::size_t> firstInvalidUtf8(const char* data, std::size_t size);

} // namespace ts
