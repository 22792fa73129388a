#include "TerminalProgress.h"

#include "analysis/ModelScanner.h"
#include "analysis/ProgressText.h"

#include <QByteArray>

#include <cstdio>
#include <unistd.h>

namespace ts::cli {

bool stderrIsTerminal()
{
    return ::isatty(STDERR_FILENO) != 0;
}

void showScanProgress(ModelScanner& scanner)
{
    if (!stderrIsTerminal())
        return;
    scanner.setControl({CancelToken(), ProgressSink([](const Progress& p) {
                            const QByteArray line = '\r' + progressLine(p).toUtf8() + "\x1b[K";
                            std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stderr);
                            std::fflush(stderr);
                        })});
}

void clearScanProgress()
{
    if (stderrIsTerminal())
        std::fputs("\r\x1b[K", stderr);
}

} // namespace ts::cli
