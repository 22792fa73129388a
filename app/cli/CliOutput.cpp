#include "CliOutput.h"

#include "TableColumns.h"

#include "base/TerminalText.h"

#include <cstdio>

namespace ts::cli {

void outRaw(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

void out(const QString& text)
{
    outRaw(terminalSafeLines(text).toUtf8() + '\n');
}

void err(const QString& text)
{
    const QByteArray bytes = terminalSafeLines(text).toUtf8() + '\n';
    std::fflush(stdout);
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
}

void err(const Error& error)
{
    err(terminalSafe(error.toString()));
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
    case ErrorCode::SeveralModels:
    case ErrorCode::NetworkError:
    case ErrorCode::AccessDenied:
    case ErrorCode::NotFound:
    case ErrorCode::RangeNotSupported:
    case ErrorCode::TlsError:
    case ErrorCode::TimedOut:
        return ExitUsage;
    default:
        return ExitInvalid;
    }
}

QString formatTable(const QList<QStringList>& rows)
{
    TableColumns columns;
    for (const QStringList& row : rows)
        columns.measure(row);
    QStringList lines;
    lines.reserve(rows.size());
    for (const QStringList& row : rows)
        lines << columns.line(row);
    return lines.join(QLatin1Char('\n'));
}

} // namespace ts::cli
