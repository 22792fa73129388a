#pragma once

#include <QString>

#include <string_view>

namespace ts {

// Many QStrings in one allocation. A header of 4 M tensors made one heap block per name (a
// QString header and its UTF-16, 48-64 bytes for a 4-character name, and 4 M calls to malloc);
// here every name is a view of one shared, reference-counted UTF-16 block, each followed by the
// terminating zero QString::utf16() relies on. The strings are ordinary QStrings: copying one adds
// a reference, changing one detaches it, and the block lives until the last name is gone.
//
// This leans on Qt 6's QArrayDataPointer (data pointer, begin, size), the same public-header
// representation QString's own inline functions use: a string may begin anywhere inside its
// block. A string that is the block's last owner may grow into its neighbours' bytes, which no
// one else can see any more.
class NameArena {
public:
    // `units`: the UTF-16 code units of all names to come plus one terminator each (for UTF-8
    // input, its byte count plus one per name is always enough).
    explicit NameArena(qsizetype units);

    // The name decoded from valid UTF-8 (the header is checked before it is parsed), exactly as
    // QString::fromUtf8 decodes it. Returns a null QString when the arena is full.
    QString add(std::string_view utf8);

private:
    QString m_block;
    qsizetype m_used = 0;
};

} // namespace ts
