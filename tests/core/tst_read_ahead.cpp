// ReadAhead: a helper thread reads a range one chunk ahead of the consumer (the writer uses it so
// converting and writing overlap). Chunks arrive complete and in order, a read error arrives in
// its chunk's place and ends the stream, and a consumer that stops early never hangs.
#include "io/MappedFile.h"
#include "io/MemorySource.h"
#include "io/ReadAhead.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <random>

using namespace ts;

namespace {

QByteArray randomBytes(int n, unsigned seed)
{
    QByteArray b(n, Qt::Uninitialized);
    std::mt19937 rng(seed);
    for (char& c : b)
        c = static_cast<char>(rng());
    return b;
}

} // namespace

class TestReadAhead : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chunksArriveWholeAndInOrder_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("chunk");
        QTest::addColumn<int>("first"); // 0: same as chunk
        QTest::newRow("exact chunks") << (4 << 20) << 0 << (1 << 20) << 0;
        QTest::newRow("short last chunk") << (5 << 20) + 12345 << 0 << (1 << 20) << 0;
        QTest::newRow("offset range") << (3 << 20) << 777 << 65536 << 0;
        QTest::newRow("one chunk") << 1000 << 8 << (1 << 20) << 0;
        QTest::newRow("empty") << 0 << 0 << 4096 << 0;
        QTest::newRow("short first chunk") << (3 << 20) << 104 << (1 << 20) << (1 << 20) - 104;
        QTest::newRow("first chunk is all") << 5000 << 0 << (1 << 20) << 9000;
    }
    void chunksArriveWholeAndInOrder()
    {
        QFETCH(int, size);
        QFETCH(int, offset);
        QFETCH(int, chunk);
        QFETCH(int, first);
        const QByteArray bytes = randomBytes(size + offset, 1);
        MemorySource source(bytes);
        ReadAhead::Buffers buffers;
        QByteArray got;
        {
            ReadAhead ahead(source, static_cast<std::uint64_t>(offset), static_cast<std::uint64_t>(size),
                            static_cast<std::size_t>(chunk), buffers, static_cast<std::size_t>(first));
            for (int k = 0;; ++k) {
                auto next = ahead.next();
                QVERIFY(next);
                if (next->empty())
                    break;
                const int expected = k == 0 && first > 0 ? first : chunk;
                QCOMPARE(static_cast<qsizetype>(next->size()),
                         std::min<qsizetype>(expected, size - got.size()));
                got.append(reinterpret_cast<const char*>(next->data()), static_cast<qsizetype>(next->size()));
            }
            QVERIFY(ahead.next() && ahead.next()->empty()); // stays at the end
        }
        QCOMPARE(got.size(), size);
        QVERIFY(got == bytes.mid(offset));
    }

    // A real file cut short while it is being read: the chunks read before the cut arrive intact,
    // then the error (MappedFile notices the new size on its next read) in the next chunk's place,
    // naming the file, and nothing follows.
    void readErrorEndsTheStream()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data.bin"));
        const QByteArray bytes = randomBytes(6 << 20, 2);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(bytes), bytes.size());
        }
        auto file = MappedFile::open(path);
        QVERIFY(file);
        ReadAhead::Buffers buffers;
        ReadAhead ahead(**file, 0, 6 << 20, 1 << 20, buffers);
        int good = 0;
        for (;;) {
            auto next = ahead.next();
            if (!next) {
                QCOMPARE(next.error().file, path);
                QCOMPARE(next.error().code, ErrorCode::FileChanged);
                break;
            }
            QVERIFY(!next->empty());
            QVERIFY(std::memcmp(next->data(), bytes.constData() + good * (1 << 20), next->size()) == 0);
            if (++good == 2)
                QVERIFY(QFile::resize(path, 3 << 20)); // the helper has read at most one chunk more
        }
        QVERIFY2(good == 2 || good == 3, qPrintable(QString::number(good)));
        auto after = ahead.next();
        QVERIFY(after && after->empty());
    }

    // The writer stops at a cancel or a write error with chunks still unread: the destructor must
    // stop the helper and return at once, many times over.
    void stoppingEarlyDoesNotHang()
    {
        const QByteArray bytes = randomBytes(8 << 20, 3);
        MemorySource source(bytes);
        ReadAhead::Buffers buffers;
        QElapsedTimer timer;
        timer.start();
        for (int round = 0; round < 200; ++round) {
            ReadAhead ahead(source, 0, static_cast<std::uint64_t>(bytes.size()), 1 << 20, buffers);
            for (int k = 0; k < round % 4; ++k)
                QVERIFY(ahead.next());
        }
        QVERIFY2(timer.elapsed() < 30000, "200 early stops should take well under a second");
    }
};

QTEST_GUILESS_MAIN(TestReadAhead)
#include "tst_read_ahead.moc"
