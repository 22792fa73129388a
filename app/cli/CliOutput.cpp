#include "CliOutput.h"

#include <cstdio>

namespace ts::cli {

void outRaw(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

void out(const QString& text)
{
    outRaw(text.toUtf8() + '\n');
}

void err(const QString& text)
{
    const QByteArray bytes = text.toUtf8() + '\n';
    std::fflush(stdout);
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
}

int exitFor(const Error& error)
{
    switch (error.code) {
    case ErrorCode::IoError:
    case ErrorCode::NotAFile:
    case ErrorCode::InvalidArgument:
    case ErrorCode::Cancelled:
    case ErrorCode::FileBusy:
    case ErrorCode::WriteRefused:
        return ExitUsage;
    default:
        return ExitInvalid;
    }
}

bool parseOrExplain(QCommandLineParser& parser, const QStringList& args, const QString& usage)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(args)) {
        err(QStringLiteral("tensorscope-cli: ") + parser.errorText());
        err(usage);
        return false;
    }
    return true;
}

QString formatTable(const QList<QStringList>& rows)
{
    QList<qsizetype> widths;
    for (const QStringList& row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths.append(0);
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    QString text;
    for (const QStringList& row : rows) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i) {
            line += i + 1 < row.size() ? row[i].leftJustified(widths[i] + 2) : row[i];
        }
        text += line + QLatin1Char('\n');
    }
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

} // namespace ts::cli
