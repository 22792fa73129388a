#include "RemoteOptions.h"

#include "CliOutput.h"

#include "base/TerminalText.h"
#include "convert/ByteSize.h"
#include "remote/HttpOpener.h"

namespace ts::cli {

std::optional<int> applyRemoteOptions(const QCommandLineParser& parser)
{
    const QString name = QStringLiteral("cache-size");
    if (!parser.optionNames().contains(name) || !parser.isSet(name))
        return std::nullopt;
    const QString text = parser.value(name).trimmed();
    std::optional<std::uint64_t> bytes =
        text == QLatin1String("0") ? std::optional<std::uint64_t>(0) : parseByteSize(text);
    if (!bytes) {
        err(QStringLiteral("tensorscope-cli: --cache-size takes a size such as 500MB, 2GiB or 0, not \"%1\"")
                .arg(terminalSafe(text)));
        return ExitUsage;
    }
    if (remote::RemoteSession* session = remote::RemoteSession::current()) {
        remote::RemoteSettings settings = session->settings();
        settings.cacheBytes = *bytes;
        session->setSettings(settings);
    }
    return std::nullopt;
}

} // namespace ts::cli
