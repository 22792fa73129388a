#include "format/WriterOrder.h"

#include <algorithm>

namespace ts {

bool writerOrderLess(Dtype dtypeA, const QString& nameA, Dtype dtypeB, const QString& nameB)
{
    if (dtypeA != dtypeB)
        return static_cast<int>(dtypeA) > static_cast<int>(dtypeB);
    // Code point order (= UTF-8 byte order, the reference's String order). UTF-16 unit order
    // agrees except where a surrogate (a character above U+FFFF) meets U+E000..U+FFFF.
    const char16_t* a = reinterpret_cast<const char16_t*>(nameA.utf16());
    const char16_t* b = reinterpret_cast<const char16_t*>(nameB.utf16());
    const auto [ia, ib] = std::mismatch(a, a + nameA.size(), b, b + nameB.size());
    if (ia == a + nameA.size())
        return ib != b + nameB.size();
    if (ib == b + nameB.size())
        return false;
    const char16_t ca = *ia, cb = *ib;
    const bool surrogateA = ca >= 0xD800 && ca <= 0xDFFF;
    const bool surrogateB = cb >= 0xD800 && cb <= 0xDFFF;
    if (surrogateA != surrogateB && (surrogateA ? cb : ca) >= 0xE000)
        return surrogateB;
    return ca < cb;
}

bool writerOrderLess(const TensorInfo& a, const TensorInfo& b)
{
    return writerOrderLess(a.dtype, a.name, b.dtype, b.name);
}

} // namespace ts
