#include "ManPageCheck.h"

#include "ChildProcess.h"

#include <QStandardPaths>

namespace ts::test {

QString manPageWarnings(const QString& page, const QString& gzipped)
{
    const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
    const QString man = QStandardPaths::findExecutable(QStringLiteral("man"));
    if (groff.isEmpty() || man.isEmpty())
        return QStringLiteral("groff or man is missing: run installer/install-deps.sh");
    QString said;
    const auto check = [&said](const QString& program, const QStringList& args,
                               const ProcessOptions& options) {
        const ProcessRun run = runProcess(program, args, options);
        if (run.exitCode != 0 || !run.err.isEmpty())
            said += program + QLatin1Char(' ') + args.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                    QString::fromUtf8(run.err);
    };
    check(groff, {QStringLiteral("-man"), QStringLiteral("-ww"), QStringLiteral("-z"), page}, {});
    ProcessOptions options;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("MANROFFSEQ"), QString());
    env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("80"));
    options.environment = env;
    check(man,
          {QStringLiteral("--warnings"), QStringLiteral("-E"), QStringLiteral("UTF-8"), QStringLiteral("-l"),
           QStringLiteral("-Tutf8"), QStringLiteral("-Z"), gzipped},
          options);
    return said;
}

} // namespace ts::test
