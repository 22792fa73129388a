#include "architecture/Architecture.h"

namespace ts {

QString ArchitectureField::display() const
{
    if (!text.isEmpty())
        return text;
    if (value && kind == Kind::Flag)
        return *value ? QStringLiteral("yes") : QStringLiteral("no");
    if (value)
        return QString::number(*value);
    return QStringLiteral("cannot tell");
}

const ArchitectureField* ArchitectureComponent::field(const QString& key) const
{
    for (const ArchitectureField& f : fields) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

} // namespace ts
