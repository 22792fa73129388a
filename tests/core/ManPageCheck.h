#pragma once
// The checks a man page must pass before it ships: groff's own warnings (-ww) and lintian's
// (man --warnings on the gzipped page, as Debian's lintian runs it). Returns what they said; empty
// when clean. A missing groff or man is a failure too (installer/install-deps.sh installs them).

#include <QProcess>
#include <QStandardPaths>
#include <QString>

namespace ts::test {

inline QString manPageWarnings(const QString& page, const QString& gzipped)
{
    const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
    const QString man = QStandardPaths::findExecutable(QStringLiteral("man"));
    if (groff.isEmpty() || man.isEmpty())
        return QStringLiteral("groff or man is missing: run installer/install-deps.sh");
    QString said;
    auto check = [&said](QProcess& p, const QString& program, const QStringList& args) {
        p.start(program, args);
        p.waitForFinished(60000);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0 || !err.isEmpty())
            said += program + QLatin1Char(' ') + args.join(QLatin1Char(' ')) + QStringLiteral(": ") + err;
    };
    QProcess g;
    check(g, groff, {QStringLiteral("-man"), QStringLiteral("-ww"), QStringLiteral("-z"), page});
    QProcess m;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("MANROFFSEQ"), QString());
    env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("80"));
    m.setProcessEnvironment(env);
    m.setStandardOutputFile(QProcess::nullDevice());
    check(m, man,
          {QStringLiteral("--warnings"), QStringLiteral("-E"), QStringLiteral("UTF-8"), QStringLiteral("-l"),
           QStringLiteral("-Tutf8"), QStringLiteral("-Z"), gzipped});
    return said;
}

} // namespace ts::test
