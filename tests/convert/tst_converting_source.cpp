// ConvertingSource, the byte source a conversion writes from: a local file is read a scan piece
// (TensorBlockReader::kReadBytes) at a time, a lent buffer converted whole. Both must give the
// bytes and counts of one DtypeConverter::convert over the whole tensor, for aligned and odd
// requests, with NaN / Inf / overflow values on the pieces' edges.
#include "TestFiles.h"
#include "analysis/TensorBlockReader.h"
#include "convert/ConvertingSource.h"
#include "convert/DtypeConverter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace ts;

namespace {

// Elements per local read, and a tensor of several reads and a short tail.
constexpr std::uint64_t kPerRead = TensorBlockReader::kReadBytes / 4;
constexpr std::uint64_t kElements = 3 * kPerRead + 1001;

std::vector<float> valuesWithSpecialsOnEdges()
{
    std::vector<float> v = test::smallWeights(kElements, 4.0f);
    const float inf = std::numeric_limits<float>::infinity();
    for (std::uint64_t edge = kPerRead; edge < kElements; edge += kPerRead) {
        v[edge - 1] = inf;                                     // last of a read
        v[edge] = -inf;                                        // first of the next
        v[edge + 1] = std::numeric_limits<float>::quiet_NaN(); // a NaN beside it
        v[edge + 2] = 3.0e38f;                                 // finite, overflows F16
    }
    v.back() = inf;
    return v;
}

struct Expected {
    std::vector<std::byte> bytes;
    ConversionCounts counts;
};

Expected convertWhole(const std::vector<float>& values, Dtype to)
{
    Expected e;
    e.bytes.resize(values.size() * static_cast<std::size_t>(dtypeBits(to) / 8));
    DtypeConverter::convert(Dtype::F32, to, reinterpret_cast<const std::byte*>(values.data()), e.bytes.data(),
                            values.size(), e.counts);
    std::uint64_t inf = 0;
    for (float x : values)
        inf += std::isinf(x) ? 1 : 0;
    e.counts.inf = inf;
    return e;
}

// QVERIFY2 evaluates its message even on success: error() only on a failed Result.
QString errText(const Result<void>& r)
{
    return r ? QString() : r.error().toString();
}

} // namespace

class TestConvertingSource : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<float> m_values = valuesWithSpecialsOnEdges();
    std::shared_ptr<const Checkpoint> m_model;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("edges.safetensors"));
        QVERIFY(test::writeSafetensors(
            path, {{QStringLiteral("w"), Dtype::F32, {kElements}, test::bytesOf(m_values)}}));
        m_model = test::openCheckpoint(path);
        QVERIFY(m_model);
    }

    void matchesOneWholeConversion_data()
    {
        QTest::addColumn<int>("to");
        QTest::addColumn<bool>("fromFile");
        for (Dtype to : {Dtype::BF16, Dtype::F16, Dtype::F8_E4M3}) {
            QTest::addRow("%s, local file", qPrintable(dtypeName(to))) << static_cast<int>(to) << true;
            QTest::addRow("%s, lent bytes", qPrintable(dtypeName(to))) << static_cast<int>(to) << false;
        }
    }
    void matchesOneWholeConversion()
    {
        QFETCH(int, to);
        QFETCH(bool, fromFile);
        const auto target = static_cast<Dtype>(to);
        const Expected expected = convertWhole(m_values, target);
        const TensorLocation input =
            fromFile ? m_model->location(0) : test::memoryLocation(test::bytesOf(m_values));
        const ConvertingSource source(input, Dtype::F32, target, kElements, QStringLiteral("w"), true);
        QCOMPARE(source.size(), expected.bytes.size());

        // The whole tensor in one request, as a small model's writer asks.
        std::vector<std::byte> whole(expected.bytes.size());
        const Result<void> read = source.read(0, whole);
        QVERIFY2(read, qPrintable(errText(read)));
        QVERIFY(whole == expected.bytes);
        const ConversionCounts c = source.counts();
        QCOMPARE(c.inf, expected.counts.inf);
        QCOMPARE(c.nan, expected.counts.nan);
        QCOMPARE(c.overflowed, expected.counts.overflowed);
        QCOMPARE(c.underflowed, expected.counts.underflowed);
        QVERIFY(c.inf >= 4); // the edges' Infs were there to count

        // An odd request (not on element boundaries) across every read's edge.
        source.resetCounts();
        const std::size_t at = 3, length = expected.bytes.size() - 7;
        std::vector<std::byte> part(length);
        const Result<void> odd = source.read(at, part);
        QVERIFY2(odd, qPrintable(errText(odd)));
        QVERIFY(
            std::equal(part.begin(), part.end(), expected.bytes.begin() + static_cast<std::ptrdiff_t>(at)));
    }

    // A file cut short after it was opened: the read that reaches past the end is an error
    // naming the file, not zeros converted.
    void fileCutShortIsAnError()
    {
        const QString path = m_dir.filePath(QStringLiteral("cut.safetensors"));
        QVERIFY(test::writeSafetensors(
            path, {{QStringLiteral("w"), Dtype::F32, {kElements}, test::bytesOf(m_values)}}));
        const auto model = test::openCheckpoint(path);
        QVERIFY(model);
        const TensorLocation input = model->location(0);
        QVERIFY(
            QFile::resize(path, static_cast<qint64>(input.offset + 2 * TensorBlockReader::kReadBytes + 12)));
        const ConvertingSource source(input, Dtype::F32, Dtype::BF16, kElements, QStringLiteral("w"), true);
        std::vector<std::byte> whole(source.size());
        const Result<void> read = source.read(0, whole);
        QVERIFY(!read);
        QVERIFY2(read.error().toString().contains(QStringLiteral("cut.safetensors")),
                 qPrintable(read.error().toString()));
    }
};

QTEST_GUILESS_MAIN(TestConvertingSource)
#include "tst_converting_source.moc"
