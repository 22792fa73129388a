#include "CliOutput.h"

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
    // Cells are escaped as they are measured and again as they are written, rather than kept:
    // terminalSafe() shares a cell that needs nothing, and a copy of every row of a listing of
    // millions of tensors would double its memory.
    QList<qsizetype> widths;
    for (const QStringList& row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths.append(0);
            widths[i] = std::max(widths[i], terminalSafe(row[i]).size());
        }
    }
    QString text;
    for (const QStringList& row : rows) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i) {
            const QString cell = terminalSafe(row[i]);
            line += i + 1 < row.size() ? cell.leftJustified(widths[i] + 2) : cell;
        }
        text += line + QLatin1Char('\n');
    }
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

} // namespace ts::cli
