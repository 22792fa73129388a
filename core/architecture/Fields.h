#pragma once

#include "architecture/Architecture.h"

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// Small builders the detectors share, so that each field reads as one line: what it is, its
// value, where the value comes from and which config.json keys hold it.
namespace ts::fields {

inline ArchitectureField number(const QString& key, const QString& label, std::optional<std::uint64_t> value,
                                const QString& evidence, QStringList configKeys = {})
{
    ArchitectureField f;
    f.key = key;
    f.label = label;
    f.value = value;
    f.evidence = evidence;
    f.configKeys = configKeys.isEmpty() ? QStringList{key} : std::move(configKeys);
    return f;
}

// A field the shapes cannot give: `why` says so in the summary.
inline ArchitectureField unknown(const QString& key, const QString& label, const QString& why,
                                 QStringList configKeys = {})
{
    return number(key, label, std::nullopt, why, std::move(configKeys));
}

inline ArchitectureField flag(const QString& key, const QString& label, bool value, const QString& evidence,
                              QStringList configKeys = {})
{
    ArchitectureField f = number(key, label, value ? 1 : 0, evidence, std::move(configKeys));
    f.kind = ArchitectureField::Kind::Flag;
    return f;
}

inline ArchitectureField list(const QString& key, const QString& label,
                              const std::vector<std::uint64_t>& values, const QString& evidence,
                              QStringList configKeys = {})
{
    ArchitectureField f = number(key, label, std::nullopt, evidence, std::move(configKeys));
    f.kind = ArchitectureField::Kind::List;
    QStringList parts;
    for (std::uint64_t v : values)
        parts << QString::number(v);
    f.text = parts.join(QStringLiteral(", "));
    return f;
}

// Descriptive text with nothing in config.json to compare it with.
inline ArchitectureField text(const QString& key, const QString& label, const QString& value,
                              const QString& evidence)
{
    ArchitectureField f;
    f.key = key;
    f.label = label;
    f.text = value;
    f.evidence = evidence;
    return f;
}

// Only for the config check (the rows behind the heads), not listed in the summary.
inline ArchitectureField hidden(ArchitectureField f)
{
    f.shown = false;
    return f;
}

// "model.layers.0-31"
inline QString blockRange(const QString& container, int first, int last)
{
    if (first == last)
        return container + QString::number(first);
    return container + QString::number(first) + QLatin1Char('-') + QString::number(last);
}

} // namespace ts::fields
