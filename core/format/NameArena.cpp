#include "format/NameArena.h"

#include <cstring>

namespace ts {

NameArena::NameArena(qsizetype units) : m_block(std::max<qsizetype>(units, 1), Qt::Uninitialized) {}

QString NameArena::add(std::string_view utf8)
{
    QStringPrivate& block = m_block.data_ptr();
    const qsizetype room = block.size - m_used;
    const auto bytes = static_cast<qsizetype>(utf8.size());
    if (bytes + 1 > room)
        return {};
    // data_ptr().data() writes in place: m_block.data() would detach once names share the block.
    char16_t* out = block.data() + m_used;
    qsizetype length = 0;
    bool ascii = true;
    for (const char c : utf8) {
        if (static_cast<unsigned char>(c) >= 0x80) {
            ascii = false;
            break;
        }
        out[length++] = static_cast<char16_t>(c);
    }
    if (!ascii) {
        // Rare in names: decoded by Qt itself, so the result is fromUtf8's to the last code unit.
        const QString decoded = QString::fromUtf8(utf8.data(), bytes);
        if (decoded.size() + 1 > room)
            return {};
        length = decoded.size();
        std::memcpy(out, decoded.utf16(), static_cast<std::size_t>(length) * sizeof(char16_t));
    }
    out[length] = u'\0';
    m_used += length + 1;
    QStringPrivate view(block.d_ptr(), out, length);
    view.ref();
    return QString(std::move(view));
}

} // namespace ts
