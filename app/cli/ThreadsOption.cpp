#include "ThreadsOption.h"

#include "CliOutput.h"

namespace ts::cli {

std::optional<int> readThreadsOption(const QCommandLineParser& parser, int& threads)
{
    if (!parser.isSet(QStringLiteral("threads")))
        return std::nullopt;
    bool ok = false;
    const int n = parser.value(QStringLiteral("threads")).toInt(&ok);
    if (!ok || n < 1 || n > 256) {
        err(QStringLiteral("tensorscope-cli: --threads takes a number from 1 to 256"));
        return ExitUsage;
    }
    threads = n;
    return std::nullopt;
}

} // namespace ts::cli
