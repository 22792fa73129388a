#include "ConvertTestUtil.h"

namespace ts::test {

ProcessRun runPython(const QString& script, const QStringList& args)
{
    ProcessOptions options;
    options.timeoutMs = 300000; // numpy over a whole converted model
    return runProcess(QStringLiteral("/usr/bin/python3"),
                      QStringList{QStringLiteral(TS_CONVERT_SCRIPTS "/") + script} + args, options);
}

bool havePythonNumpy()
{
    return runProcess(QStringLiteral("/usr/bin/python3"),
                      {QStringLiteral("-c"), QStringLiteral("import numpy")})
               .exitCode == 0;
}

} // namespace ts::test
