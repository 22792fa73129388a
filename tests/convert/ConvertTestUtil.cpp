#include "ConvertTestUtil.h"

#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTest>

namespace ts::test {

bool writeModel(const QString& path, const std::vector<RawTensor>& tensors,
                const std::optional<Metadata>& metadata, std::uint64_t headerSlack)
{
    std::vector<WriterTensor> list;
    for (const RawTensor& t : tensors) {
        auto source = std::make_shared<const MemorySource>(t.bytes, t.name);
        list.push_back(WriterTensor{t.name, t.dtype, t.shape,
                                    TensorLocation{source, 0, static_cast<std::uint64_t>(t.bytes.size())}});
    }
    WriteOptions options;
    options.headerSlack = headerSlack;
    const auto r = SafetensorsWriter::write(path, std::move(list), metadata, options);
    if (!r)
        qWarning("%s", qPrintable(r.error().toString()));
    return r.ok();
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

static ProcessResult run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(300000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    if (r.exitCode == -1) // a crash or a sanitizer abort: its report is on the child's stderr
        qWarning("%s crashed:\n%s", qPrintable(program), r.err.constData());
    return r;
}

QString cliPath()
{
    return QStringLiteral(TS_CLI_PATH);
}

ProcessResult runCli(const QStringList& args)
{
    return run(QStringLiteral(TS_CLI_PATH), args);
}

ProcessResult runPython(const QString& script, const QStringList& args)
{
    return run(QStringLiteral("/usr/bin/python3"),
               QStringList{QStringLiteral(TS_CONVERT_SCRIPTS "/") + script} + args);
}

bool havePythonNumpy()
{
    return run(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import numpy")})
               .exitCode == 0;
}

} // namespace ts::test
