#pragma once
// Runs the tensorscope-cli this build made (TS_CLI_PATH, set by tests/CMakeLists.txt) as a child:
// its exit status, stdout and stderr. A crash or a sanitizer abort reads as exit -1, and its report
// (on the child's stderr) is printed so the failing test shows it.

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QtGlobal>

namespace ts::test {

struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline CliRun cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(TS_CLI_PATH), args);
    p.waitForFinished(120000);
    CliRun r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
             p.readAllStandardError()};
    if (r.exitCode == -1)
        qWarning("tensorscope-cli crashed:\n%s", r.err.constData());
    return r;
}

} // namespace ts::test
