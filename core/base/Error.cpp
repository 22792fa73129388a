#include "base/Error.h"

namespace ts {

QString Error::toString() const
{
    QString out;
    if (!file.isEmpty())
        out += file + QStringLiteral(": ");
    out += message;
    out += QStringLiteral(" [") + errorCodeName(code) + QLatin1Char(']');
    return out;
}

Error makeError(ErrorCode code, const QString& file, const QString& message, const QString& tensor,
                std::optional<std::uint64_t> offset)
{
    return Error{code, message, file, tensor, offset};
}

} // namespace ts
