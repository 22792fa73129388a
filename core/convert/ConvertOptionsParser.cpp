#include "convert/ConvertOptionsParser.h"

#include "convert/ByteSize.h"
#include "convert/DtypeConverter.h"

#include <QRegularExpression>

namespace ts {
namespace {

Error optionError(const QString& message)
{
    return makeError(ErrorCode::InvalidArgument, QString(), message);
}

std::optional<Dtype> targetDtype(const QString& text)
{
    const QString name = text.trimmed();
    for (const Dtype d : DtypeConverter::targets()) {
        if (name.compare(dtypeName(d), Qt::CaseInsensitive) == 0)
            return d;
    }
    return std::nullopt;
}

// "A=B" at the first or the last '='; nullopt when there is none.
std::optional<std::pair<QString, QString>> split(const QString& text, bool atLast)
{
    const qsizetype eq = atLast ? text.lastIndexOf(QLatin1Char('=')) : text.indexOf(QLatin1Char('='));
    if (eq < 0)
        return std::nullopt;
    return std::make_pair(text.left(eq), text.mid(eq + 1));
}

QString dtypeList()
{
    return convertDtypeNames().join(QStringLiteral(", "));
}

} // namespace

QStringList convertDtypeNames()
{
    QStringList names;
    for (const Dtype d : DtypeConverter::targets())
        names << dtypeName(d);
    return names;
}

Result<ConvertOptions> parseConvertOptions(const ConvertOptionTexts& texts)
{
    ConvertOptions options;
    if (texts.dtype) {
        options.dtype = targetDtype(*texts.dtype);
        if (!options.dtype)
            return optionError(
                QStringLiteral("--dtype must be one of %1; got \"%2\"").arg(dtypeList(), *texts.dtype));
    }
    for (const QString& text : texts.dtypeFor) {
        const auto parts = split(text, true);
        const QString glob = parts ? parts->first.trimmed() : QString();
        const std::optional<Dtype> d = parts ? targetDtype(parts->second) : std::nullopt;
        if (glob.isEmpty() || !d)
            return optionError(QStringLiteral("--dtype-for expects GLOB=D with D one of %1; got \"%2\"")
                                   .arg(dtypeList(), text));
        options.dtypeFor.emplace_back(glob, *d);
    }
    options.include = texts.include;
    options.exclude = texts.exclude;
    for (const QString& text : texts.rename) {
        const auto parts = split(text, false);
        if (!parts || parts->first.isEmpty())
            return optionError(QStringLiteral("--rename expects REGEX=REPLACEMENT, got \"%1\"").arg(text));
        if (const QRegularExpression re(parts->first); !re.isValid())
            return optionError(
                QStringLiteral("--rename \"%1\": the regular expression is invalid at character %2: %3")
                    .arg(text)
                    .arg(re.patternErrorOffset())
                    .arg(re.errorString()));
        options.rename.push_back(*parts);
    }
    for (const QString& text : texts.set) {
        const auto parts = split(text, false);
        const QString key = parts ? parts->first.trimmed() : QString();
        if (key.isEmpty())
            return optionError(QStringLiteral("--set expects KEY=VALUE, got \"%1\"").arg(text));
        options.setMetadata.emplace_back(key, parts->second);
    }
    for (const QString& key : texts.unset) {
        if (key.trimmed().isEmpty())
            return optionError(QStringLiteral("--unset expects a KEY, got \"%1\"").arg(key));
        options.unsetMetadata << key.trimmed();
    }
    if (texts.shardSize) {
        options.shardSize = parseByteSize(*texts.shardSize);
        if (!options.shardSize)
            return optionError(
                QStringLiteral("--shard-size expects a size such as 500MB, 2GB or 1GiB; got \"%1\"")
                    .arg(*texts.shardSize));
    }
    return options;
}

} // namespace ts
