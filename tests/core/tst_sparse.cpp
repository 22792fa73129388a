// Opening costs the same for 1 TB as for 1 MB: the header is read, the data never touched.
#include "format/HeaderSerializer.h"
#include "format/SafetensorsFile.h"

#include "ChildProcess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

namespace {

// A valid file of `total` bytes, one U8 tensor filling it, written sparse: only the header is real.
bool makeSparseModel(const QString& path, std::uint64_t total)
{
    std::uint64_t data = total;
    QByteArray header;
    for (int round = 0; round < 3; ++round) { // the header length depends on the digits of the size
        ts::TensorInfo t{QStringLiteral("huge"), ts::Dtype::U8, {data}, 0, data};
        header = ts::serializeHeader({t}, std::nullopt);
        data = total - static_cast<std::uint64_t>(header.size());
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(header) != header.size())
        return false;
    return f.resize(static_cast<qint64>(total));
}

} // namespace

class TestSparse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aTerabyteOpensLikeAMegabyte()
    {
        QTemporaryDir dir;
        const QString small = dir.filePath(QStringLiteral("small.safetensors"));
        const QString huge = dir.filePath(QStringLiteral("huge.safetensors"));
        QVERIFY(makeSparseModel(small, 1ULL << 20));
        QVERIFY2(makeSparseModel(huge, 1ULL << 40), "the file system cannot hold a 1 TiB sparse file");

        const long before = ts::test::currentRssKb();
        auto file = ts::SafetensorsFile::open(huge);
        QVERIFY2(file, qPrintable(file ? QString() : file.error().toString()));
        QCOMPARE((*file)->fileSize(), 1ULL << 40);
        QCOMPARE((*file)->tensors().front().byteSize(), (1ULL << 40) - (*file)->header().dataOffset());
        const long after = ts::test::currentRssKb();
        // Resident memory does not grow with the file: a few MiB of slack for allocator noise.
        QVERIFY2(after - before < 8 * 1024,
                 qPrintable(QStringLiteral("RSS grew by %1 KiB").arg(after - before)));

        // Same work either way: both reads stop at the header. (Timing goals live in tests/bench;
        // this only checks the order of magnitude so a regression that reads data shows up.)
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20; ++i)
            QVERIFY(ts::SafetensorsFile::open(huge));
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(ts::SafetensorsFile::open(small));
    }
};

QTEST_GUILESS_MAIN(TestSparse)
#include "tst_sparse.moc"
