#pragma once

#include "base/Error.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace ts::cli {

// Exit statuses shared by every subcommand.
enum Exit : int { ExitOk = 0, ExitInvalid = 1, ExitUsage = 2 };

// Text output. Values from a file or from the command line (names, metadata, paths) go through
// terminalSafe() where they are put into a line; out() and err() also escape any control
// character that is left (terminalSafeLines), so text output never drives the terminal.
void out(const QString& text);        // stdout, UTF-8, newline added
void outRaw(const QByteArray& bytes); // stdout, as is: JSON
void err(const QString& text);        // stderr, UTF-8, newline added
void err(const Error& error);         // its sentence, escaped whole: it embeds names and paths
// An Error becomes exit 2 when it is about the file system or arguments, 1 when the file is bad.
int exitFor(const Error& error);
// Left-aligned columns, widths from the widest cell. Every cell goes through terminalSafe():
// pass raw values.
QString formatTable(const QList<QStringList>& rows);

} // namespace ts::cli
