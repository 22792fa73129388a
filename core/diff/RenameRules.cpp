#include "diff/RenameRules.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace ts::diff {
namespace {

constexpr qint64 kMaxFileBytes = 16 << 20;

} // namespace

Result<void> RenameRules::addAssignment(const QString& rule)
{
    const qsizetype eq = rule.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return makeError(ErrorCode::InvalidArgument, QString(),
                         QStringLiteral("a rename rule is REGEX=REPLACEMENT, got \"%1\"").arg(rule));
    return addRule(rule.left(eq), rule.mid(eq + 1));
}

Result<void> RenameRules::addRule(const QString& pattern, const QString& replacement)
{
    QRegularExpression re(pattern);
    if (!re.isValid())
        return makeError(ErrorCode::InvalidArgument, QString(),
                         QStringLiteral("the rename pattern \"%1\" is not a valid regular expression at "
                                        "character %2: %3")
                             .arg(pattern)
                             .arg(re.patternErrorOffset())
                             .arg(re.errorString()));
    m_rules.emplace_back(std::move(re), replacement);
    return {};
}

void RenameRules::addExact(const QString& from, const QString& to)
{
    m_exact.insert(from, to);
}

Result<void> RenameRules::addFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::IoError, path,
                         QStringLiteral("cannot read the rename file: %1").arg(file.errorString()));
    if (file.size() > kMaxFileBytes)
        return makeError(ErrorCode::LimitExceeded, path,
                         QStringLiteral("the rename file is larger than 16 MiB"));
    const QByteArray bytes = file.read(kMaxFileBytes + 1);
    if (bytes.trimmed().startsWith('{')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (!doc.isObject())
            return makeError(ErrorCode::InvalidArgument, path,
                             QStringLiteral("the rename file is not a JSON object of names: %1 at byte %2")
                                 .arg(parseError.errorString())
                                 .arg(parseError.offset),
                             {}, static_cast<std::uint64_t>(std::max(0, parseError.offset)));
        const QJsonObject map = doc.object();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().isString())
                return makeError(ErrorCode::InvalidArgument, path,
                                 QStringLiteral("the rename file maps \"%1\" to something that is not a name")
                                     .arg(it.key()));
            addExact(it.key(), it.value().toString());
        }
        return {};
    }
    const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#')))
            continue;
        if (Result<void> r = addAssignment(line); !r)
            return makeError(ErrorCode::InvalidArgument, path,
                             QStringLiteral("line %1: %2").arg(i + 1).arg(r.error().message));
    }
    return {};
}

std::optional<QString> RenameRules::apply(const QString& name) const
{
    if (const auto it = m_exact.constFind(name); it != m_exact.constEnd())
        return *it;
    QString renamed = name;
    for (const auto& [re, replacement] : m_rules)
        renamed.replace(re, replacement);
    if (renamed == name)
        return std::nullopt;
    return renamed;
}

QStringList RenameRules::describe() const
{
    QStringList out;
    for (const auto& [re, replacement] : m_rules)
        out << re.pattern() + QLatin1Char('=') + replacement;
    if (!m_exact.isEmpty())
        out << QStringLiteral("%1 exact names").arg(m_exact.size());
    return out;
}

} // namespace ts::diff
