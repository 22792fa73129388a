#pragma once

#include <QStringList>

namespace ts::cli {

// Each subcommand takes its own arguments (argv without the program name) and returns the exit
// status.
int runInfo(const QStringList& args);
int runLs(const QStringList& args);
int runValidate(const QStringList& args);
int runMeta(const QStringList& args);
int runRecover(const QStringList& args);
int runConvert(const QStringList& args);
int runExport(const QStringList& args);
int runStats(const QStringList& args);
int runScan(const QStringList& args);
int runAuditPickle(const QStringList& args);
int runDiff(const QStringList& args);
int runReport(const QStringList& args);

} // namespace ts::cli
