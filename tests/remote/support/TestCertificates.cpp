#include "TestCertificates.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace ts::test {
namespace {

bool run(const QString& openssl, const QStringList& args, QString& error)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(openssl, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        error = QStringLiteral("openssl %1 failed: %2")
                    .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll()));
        return false;
    }
    return true;
}

} // namespace

bool TestCertificates::make()
{
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (openssl.isEmpty()) {
        error = QStringLiteral("openssl is not installed (installer/install-deps.sh installs it)");
        return false;
    }
    const QString caKey = dir.filePath(QStringLiteral("ca.key"));
    caFile = dir.filePath(QStringLiteral("ca.pem"));
    keyFile = dir.filePath(QStringLiteral("server.key"));
    certFile = dir.filePath(QStringLiteral("server.pem"));
    const QString csr = dir.filePath(QStringLiteral("server.csr"));
    const QString ext = dir.filePath(QStringLiteral("server.ext"));
    QFile e(ext);
    if (!e.open(QIODevice::WriteOnly))
        return false;
    e.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n");
    e.close();
    // EC keys: made in milliseconds, where RSA takes a noticeable part of a second.
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    return run(openssl,
               QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec +
                   QStringList{QStringLiteral("-keyout"), caKey, QStringLiteral("-out"), caFile,
                               QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                               QStringLiteral("/CN=Tensorscope test CA")},
               error) &&
           run(openssl,
               QStringList{QStringLiteral("req")} + ec +
                   QStringList{QStringLiteral("-keyout"), keyFile, QStringLiteral("-out"), csr,
                               QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")},
               error) &&
           run(openssl,
               {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), csr,
                QStringLiteral("-CA"), caFile, QStringLiteral("-CAkey"), caKey,
                QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), certFile, QStringLiteral("-days"),
                QStringLiteral("2"), QStringLiteral("-extfile"), ext},
               error);
}

} // namespace ts::test
