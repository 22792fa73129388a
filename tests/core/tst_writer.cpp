// The writer: byte-identical to the reference layout, metadata re-saves that carry the data
// buffer over untouched, and atomic saves that never damage an existing file.
#include "Fixtures.h"
#include "TestFiles.h"
#include "format/HeaderSerializer.h"
#include "format/SafetensorsFile.h"
#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {

using ts::test::readFile;

std::vector<ts::WriterTensor> tensorsOf(const ts::SafetensorsFile& file)
{
    std::vector<ts::WriterTensor> out;
    for (const ts::TensorInfo& t : file.tensors())
        out.push_back(ts::WriterTensor{t.name, t.dtype, t.shape, file.location(t)});
    return out;
}

QStringList leftoverTemporaries(const QString& dir)
{
    return QDir(dir).entryList({QStringLiteral(".*tensorscope-*")}, QDir::Files | QDir::Hidden);
}

} // namespace

class TestWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void referenceWriterCasesAreReproducedByteForByte_data()
    {
        QTest::addColumn<QString>("path");
        QFile f(ts::test::conformanceDir() + QStringLiteral("/expected.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        int count = 0;
        while (!f.atEnd()) {
            const QJsonObject c = QJsonDocument::fromJson(f.readLine()).object();
            if (c.value(QStringLiteral("made_by")).toString() != QLatin1String("reference-writer"))
                continue;
            QTest::newRow(qPrintable(c.value(QStringLiteral("id")).toString()))
                << ts::test::conformanceDir() + QStringLiteral("/cases/") +
                       c.value(QStringLiteral("file")).toString();
            ++count;
        }
        QVERIFY(count >= 20);
    }

    void referenceWriterCasesAreReproducedByteForByte()
    {
        QFETCH(QString, path);
        auto file = ts::SafetensorsFile::open(path);
        QVERIFY(file);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.safetensors"));
        // Tensors handed over in reverse order: the writer must find the reference order itself.
        auto tensors = tensorsOf(**file);
        std::reverse(tensors.begin(), tensors.end());
        QVERIFY(ts::SafetensorsWriter::write(out, tensors, (*file)->header().metadata));
        QCOMPARE(readFile(out), readFile(path));
        // And a metadata re-save with the same metadata is the identity.
        const QString again = dir.filePath(QStringLiteral("again.safetensors"));
        QVERIFY(ts::SafetensorsWriter::rewriteMetadata(**file, (*file)->header().metadata, again));
        QCOMPARE(readFile(again), readFile(path));
    }

    void serializerEscapesLikeSerde()
    {
        QByteArray out;
        ts::appendJsonString(out, QStringLiteral("a\"b\\c\n\t\x01\x7f\u00e9") + QChar(0));
        QCOMPARE(out, QByteArray("\"a\\\"b\\\\c\\n\\t\\u0001\x7f\xc3\xa9\\u0000\""));
    }

    void metadataResaveKeepsTheDataBuffer()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        const QString source = ts::test::realFixture(QStringLiteral("face_recognition_f16.safetensors"));
        auto file = ts::SafetensorsFile::open(source);
        QVERIFY(file);
        ts::Metadata metadata = (*file)->header().metadata.value_or(ts::Metadata{});
        metadata.set(QStringLiteral("note"), QStringLiteral("ünïcödé ✓ \"quoted\" \n newline"));
        metadata.set(QStringLiteral("empty"), QString());
        metadata.set(QStringLiteral("config"), QStringLiteral(R"({"layers": [1, 2, {"x": null}]})"));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("edited.safetensors"));
        QVERIFY(ts::SafetensorsWriter::rewriteMetadata(**file, metadata, out, {1024, {}}));

        auto edited = ts::SafetensorsFile::open(out);
        QVERIFY2(edited, qPrintable(edited ? QString() : edited.error().toString()));
        QCOMPARE((*edited)->header().metadata, std::optional<ts::Metadata>(metadata));
        QCOMPARE((*edited)->tensors().size(), (*file)->tensors().size());
        for (std::size_t i = 0; i < (*file)->tensors().size(); ++i) {
            QCOMPARE((*edited)->tensors()[i].name, (*file)->tensors()[i].name);
            QCOMPARE((*edited)->tensors()[i].begin, (*file)->tensors()[i].begin);
        }
        // Same data bytes, same offsets: compare hashes of the two buffers.
        const QByteArray before =
            readFile(source).mid(static_cast<qsizetype>((*file)->header().dataOffset()));
        const QByteArray after = readFile(out).mid(static_cast<qsizetype>((*edited)->header().dataOffset()));
        QCOMPARE(QCryptographicHash::hash(after, QCryptographicHash::Sha256),
                 QCryptographicHash::hash(before, QCryptographicHash::Sha256));
        // The slack is spaces inside the header, within the format, and the data stays aligned.
        QVERIFY((*edited)->header().headerLength >= (*file)->header().headerLength + 1024 - 8);
        QCOMPARE((*edited)->header().headerLength % 8, std::uint64_t(0));
    }

    void savingOverTheOpenFileKeepsTheOpenViewIntact()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.safetensors"));
        QVERIFY(QFile::copy(ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        auto open = ts::SafetensorsFile::open(path);
        QVERIFY(open);
        const ts::TensorInfo& t = (*open)->tensors().back();
        QByteArray before(static_cast<qsizetype>(t.byteSize()), '\0');
        QVERIFY((*open)->source()->read((*open)->location(t).offset,
                                        std::as_writable_bytes(std::span(before.data(), before.size()))));

        ts::Metadata metadata;
        metadata.set(QStringLiteral("edited"), QStringLiteral("yes"));
        QVERIFY(ts::SafetensorsWriter::rewriteMetadata(**open, metadata, path));

        // The open file still reads its old bytes, through the mapping and through read().
        QByteArray after(before.size(), '\0');
        QVERIFY((*open)->source()->read((*open)->location(t).offset,
                                        std::as_writable_bytes(std::span(after.data(), after.size()))));
        QCOMPARE(after, before);
        const auto view = (*open)->source()->view((*open)->location(t).offset, t.byteSize());
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(view.data()), static_cast<qsizetype>(view.size())),
                 before);
        QVERIFY((*open)->source()->changedOnDisk()); // and knows it was replaced
        auto reopened = ts::SafetensorsFile::open(path);
        QVERIFY(reopened);
        QCOMPARE((*reopened)->header().metadata->value(QStringLiteral("edited")),
                 std::optional<QString>(QStringLiteral("yes")));
        QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadOwner | QFile::WriteOwner),
                 QFile::ReadOwner | QFile::WriteOwner);
    }

    void aFailingWriteLeavesTheOldFileUntouched()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.safetensors"));
        // An existing good file.
        std::vector<ts::WriterTensor> good{{QStringLiteral("w"),
                                            ts::Dtype::F32,
                                            {2},
                                            {std::make_shared<ts::MemorySource>(QByteArray(8, 'x')), 0, 8}}};
        QVERIFY(ts::SafetensorsWriter::write(path, good, std::nullopt));
        const QByteArray original = readFile(path);

        // A source that fails half way (it claims more bytes than it has, like a truncated file).
        auto shortSource = std::make_shared<ts::MemorySource>(QByteArray(16 << 20, 'y'));
        std::vector<ts::WriterTensor> failing{
            {QStringLiteral("big"), ts::Dtype::U8, {32u << 20}, {shortSource, 0, 32u << 20}}};
        auto result = ts::SafetensorsWriter::write(path, failing, std::nullopt);
        QVERIFY(!result);
        QCOMPARE(readFile(path), original);
        QVERIFY(leftoverTemporaries(dir.path()).isEmpty());

        // Cancelled at the first progress report: same guarantee.
        ts::WriteOptions cancel;
        cancel.control.progress =
            ts::ProgressSink([token = cancel.control.cancel](const ts::Progress&) { token.cancel(); },
                             std::chrono::milliseconds(0));
        std::vector<ts::WriterTensor> fine{
            {QStringLiteral("ok"), ts::Dtype::U8, {16u << 20}, {shortSource, 0, 16u << 20}}};
        auto cancelled = ts::SafetensorsWriter::write(path, fine, std::nullopt, cancel);
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().code, ts::ErrorCode::Cancelled);
        QCOMPARE(readFile(path), original);
        QVERIFY(leftoverTemporaries(dir.path()).isEmpty());

        // A tensor whose bytes do not match its shape is refused before anything is written.
        std::vector<ts::WriterTensor> wrong{{QStringLiteral("w"), ts::Dtype::F32, {3}, {shortSource, 0, 8}}};
        QCOMPARE(ts::SafetensorsWriter::write(path, wrong, std::nullopt).error().code,
                 ts::ErrorCode::TensorInvalidInfo);
        QCOMPARE(readFile(path), original);
    }

    void anUnwritableFolderIsAClearError()
    {
        if (::geteuid() == 0) {
            // root ignores folder permissions; a path under a regular file fails for everyone.
            QTemporaryDir dir;
            const QString blocker = dir.filePath(QStringLiteral("file"));
            QFile f(blocker);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.close();
            auto r =
                ts::SafetensorsWriter::write(blocker + QStringLiteral("/out.safetensors"), {}, std::nullopt);
            QVERIFY(!r);
            QCOMPARE(r.error().code, ts::ErrorCode::IoError);
            QVERIFY(r.error().message.contains(QStringLiteral("nothing was changed")));
            return;
        }
        QTemporaryDir dir;
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0555) == 0);
        auto r =
            ts::SafetensorsWriter::write(dir.filePath(QStringLiteral("x.safetensors")), {}, std::nullopt);
        ::chmod(QFile::encodeName(dir.path()).constData(), 0755);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ts::ErrorCode::IoError);
    }
};

QTEST_GUILESS_MAIN(TestWriter)
#include "tst_writer.moc"
