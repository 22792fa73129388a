#include "WriterOrder.h"

namespace ts {

bool writerOrderLess(Dtype dtypeA, const QString& nameA, Dtype dtypeB, const QString& nameB)
{
    if (dtypeA != dtypeB)
        return static_cast<int>(dtypeA) > static_cast<int>(dtypeB);
    // Code point order equals UTF-8 byte order; QString::compare would compare UTF-16 units,
    // which sorts characters above U+FFFF before U+E000..U+FFFF.
    const QChar* a = nameA.constData();
    const QChar* b = nameB.constData();
    qsizetype i = 0, j = 0;
    while (i < nameA.size() && j < nameB.size()) {
        char32_t ca = a[i].unicode(), cb = b[j].unicode();
        if (a[i].isHighSurrogate() && i + 1 < nameA.size())
            ca = QChar::surrogateToUcs4(a[i], a[i + 1]), ++i;
        if (b[j].isHighSurrogate() && j + 1 < nameB.size())
            cb = QChar::surrogateToUcs4(b[j], b[j + 1]), ++j;
        if (ca != cb)
            return ca < cb;
        ++i, ++j;
    }
    return (nameA.size() - i) < (nameB.size() - j);
}

bool writerOrderLess(const TensorInfo& a, const TensorInfo& b)
{
    return writerOrderLess(a.dtype, a.name, b.dtype, b.name);
}

} // namespace ts
