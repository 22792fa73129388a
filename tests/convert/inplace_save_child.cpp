// Test helper: `inplace_save_child FILE STEP [torn]` sets metadata key "edited" in place and stops
// itself (SIGSTOP) when the save reaches STEP, so the parent test can SIGKILL it at exactly that
// point. With "torn", it first writes the first half of the new header over the old one at that
// step, as a crash in the middle of the header write leaves it (each byte old or new).
#include "format/SafetensorsFile.h"
#include "write/MetadataSave.h"

#include <QByteArray>
#include <QFile>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    if (argc < 3)
        return 2;
    const QString path = QFile::decodeName(argv[1]);
    const QByteArray stepName = argv[2];
    const bool torn = argc > 3 && std::strcmp(argv[3], "torn") == 0;
    auto file = ts::SafetensorsFile::open(path);
    if (!file) {
        std::fprintf(stderr, "%s\n", qPrintable(file.error().toString()));
        return 2;
    }
    std::optional<ts::Metadata> metadata = (*file)->header().metadata.value_or(ts::Metadata{});
    metadata->set(QStringLiteral("edited"), QStringLiteral("yes"));
    ts::MetadataSaveOptions options;
    options.stepObserver = [&](ts::SaveStep step) {
        static const char* const names[] = {"JournalSynced", "HeaderWritten", "HeaderSynced",
                                            "JournalRemoved"};
        if (stepName != names[static_cast<int>(step)])
            return;
        if (torn) {
            const auto newHeader = ts::MetadataSave::inPlaceHeader((*file)->header(), metadata);
            const int fd = ::open(argv[1], O_WRONLY);
            const auto half = static_cast<std::size_t>((*file)->header().headerLength / 2);
            if (!newHeader || fd < 0 || ::pwrite(fd, newHeader->constData() + 8, half, 8) < 0)
                std::_Exit(3);
            ::close(fd);
        }
        std::raise(SIGSTOP); // the parent kills us here
    };
    auto saved = ts::MetadataSave::save(**file, metadata, path, options);
    if (!saved) {
        std::fprintf(stderr, "%s\n", qPrintable(saved.error().toString()));
        return 1;
    }
    return saved->method == ts::SaveMethod::InPlace ? 0 : 4;
}
