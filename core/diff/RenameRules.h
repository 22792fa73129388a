#pragma once

#include "base/Result.h"

#include <QHash>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace ts::diff {

// What the user says A's tensors are called in B (diffusers names against the original ones, a
// prefix a training script added): exact names first, then regular expressions with their
// replacements (\1 for a group), applied in order as `convert --rename` applies them. The
// comparison uses them only for tensors of A that B has no tensor of the same name for.
class RenameRules {
public:
    // "REGEX=REPLACEMENT", split at the first '=' as convert's --rename is.
    Result<void> addAssignment(const QString& rule);
    Result<void> addRule(const QString& pattern, const QString& replacement);
    void addExact(const QString& from, const QString& to);
    // A file of rules: a JSON object of exact names {"name in A": "name in B"}, or lines of
    // REGEX=REPLACEMENT (blank lines and lines starting with # are skipped). At most 16 MiB.
    Result<void> addFile(const QString& path);

    // B's name for `name`, or nullopt when no rule changes it.
    std::optional<QString> apply(const QString& name) const;
    bool isEmpty() const { return m_exact.isEmpty() && m_rules.empty(); }
    // The rules as given, for reports ("model\.(.*)=\1").
    QStringList describe() const;

private:
    QHash<QString, QString> m_exact;
    std::vector<std::pair<QRegularExpression, QString>> m_rules;
};

} // namespace ts::diff
