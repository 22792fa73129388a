// Quantiles (p1 ... p99) and the share of zeros against numpy's quantile(method="inverted_cdf"):
// every dtype, through the single-tensor analyzer and through the model scan (a tensor split over
// several chunks included), on every SIMD target the binary carries. The inputs are built from a
// splitmix64 stream that data/generate_quantiles.py reproduces; the expected values are its
// output (data/expected_quantiles.json).
#include "AnalysisTestUtil.h"

#include "analysis/ModelScanner.h"
#include "analysis/TensorAnalyzer.h"
#include "checkpoint/Checkpoint.h"
#include "convert/DtypeConverter.h"
#include "io/MemorySource.h"

#include <QJsonArray>
#include <QScopeGuard>
#include <QTest>

#include <hwy/targets.h>

#include <bit>
#include <cstring>

using namespace ts;

namespace {

struct Case {
    QString name;
    Dtype dtype = Dtype::F32;
    std::uint64_t elements = 0;
    std::uint64_t seed = 0;
    QString kind;
    std::uint64_t zeros = 0;
    std::optional<Quantiles> quantiles;
};

struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next()
    {
        state += 0x9e3779b97f4a7c15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

QByteArray streamBytes(std::uint64_t seed, std::uint64_t size)
{
    QByteArray out(static_cast<qsizetype>((size + 7) / 8 * 8), Qt::Uninitialized);
    SplitMix64 gen{seed};
    for (qsizetype i = 0; i < out.size(); i += 8) {
        const std::uint64_t v = gen.next();
        std::memcpy(out.data() + i, &v, 8);
    }
    out.truncate(static_cast<qsizetype>(size));
    return out;
}

// The generator's weights(): (u1 + u2 + u3 + u4 - 2) * 0.02 in float64, u = (z >> 11) * 2^-53.
std::vector<double> weights(std::uint64_t seed, std::uint64_t n)
{
    SplitMix64 gen{seed};
    std::vector<double> out(n);
    for (double& x : out) {
        double s = 0;
        for (int k = 0; k < 4; ++k)
            s += static_cast<double>(gen.next() >> 11) * 0x1p-53;
        x = (s - 2.0) * 0.02;
    }
    return out;
}

QByteArray encode(Dtype dtype, const std::vector<double>& x)
{
    ConversionCounts ignored;
    QByteArray out(static_cast<qsizetype>(x.size()) * dtypeBits(dtype) / 8, Qt::Uninitialized);
    auto* dst = reinterpret_cast<std::byte*>(out.data());
    if (dtype == Dtype::BF16) { // as the generator: float64 -> float32 -> BF16, each to nearest even
        std::vector<float> f(x.begin(), x.end());
        DtypeConverter::convert(Dtype::F32, Dtype::BF16, reinterpret_cast<const std::byte*>(f.data()), dst,
                                f.size(), ignored);
        return out;
    }
    DtypeConverter::convert(Dtype::F64, dtype, reinterpret_cast<const std::byte*>(x.data()), dst, x.size(),
                            ignored);
    return out;
}

QByteArray caseBytes(const Case& c)
{
    if (c.kind == QLatin1String("raw"))
        return streamBytes(c.seed, TensorBlockReader::bytesFor(c.dtype, c.elements));
    if (c.kind == QLatin1String("weights"))
        return encode(c.dtype, weights(c.seed, c.elements));
    // "narrow": 1 + k ulp, k < 2^16: every value in one bucket of the leading 16 key bits.
    const QByteArray k = streamBytes(c.seed, 8 * c.elements);
    std::vector<std::uint64_t> ks(c.elements);
    std::memcpy(ks.data(), k.constData(), 8 * c.elements);
    if (c.dtype == Dtype::F32) {
        std::vector<float> f(c.elements);
        for (std::size_t i = 0; i < f.size(); ++i)
            f[i] = 1.0f + static_cast<float>(ks[i] & 0xffff) * 0x1p-23f;
        return test::bytesOf(f);
    }
    std::vector<double> d(c.elements);
    for (std::size_t i = 0; i < d.size(); ++i)
        d[i] = 1.0 + static_cast<double>(ks[i] & 0xffff) * 0x1p-52;
    return test::bytesOf(d);
}

std::vector<Case> loadCases()
{
    QFile f(QStringLiteral(TS_ANALYSIS_DATA "/expected_quantiles.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::vector<Case> cases;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray()) {
        const QJsonObject o = v.toObject();
        Case c;
        c.name = o.value(QStringLiteral("name")).toString();
        c.dtype = *dtypeFromName(o.value(QStringLiteral("dtype")).toString());
        c.elements = static_cast<std::uint64_t>(o.value(QStringLiteral("elements")).toDouble());
        c.seed = static_cast<std::uint64_t>(o.value(QStringLiteral("seed")).toDouble());
        c.kind = o.value(QStringLiteral("kind")).toString();
        c.zeros = static_cast<std::uint64_t>(o.value(QStringLiteral("zeros")).toDouble());
        if (o.contains(QStringLiteral("quantiles"))) {
            Quantiles q;
            const QJsonArray a = o.value(QStringLiteral("quantiles")).toArray();
            for (std::size_t l = 0; l < q.values.size(); ++l)
                q.values[l] = a[static_cast<qsizetype>(l)].toDouble();
            c.quantiles = q;
        }
        cases.push_back(std::move(c));
    }
    return cases;
}

QString describe(const std::optional<Quantiles>& q)
{
    if (!q)
        return QStringLiteral("none");
    QStringList parts;
    for (double v : q->values)
        parts << QString::number(v, 'g', 17);
    return parts.join(QLatin1Char(' '));
}

QString describe(const Boxed<Quantiles>& q)
{
    return describe(q ? std::optional<Quantiles>(*q) : std::nullopt);
}

} // namespace

class TestQuantiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_cases = loadCases();
        QVERIFY2(m_cases.size() >= 31, "tests/analysis/data/expected_quantiles.json is missing or short");
        std::vector<WriterTensor> tensors;
        for (const Case& c : m_cases) {
            m_bytes.push_back(caseBytes(c));
            tensors.push_back(test::memoryTensor(c.name, c.dtype, {c.elements}, m_bytes.back()));
        }
        const QString path = m_dir.filePath(QStringLiteral("quantiles.safetensors"));
        const auto written = SafetensorsWriter::write(path, std::move(tensors), std::nullopt);
        QVERIFY2(written, qPrintable(test::errText(written)));
        auto model = Checkpoint::open(path);
        QVERIFY2(model, qPrintable(test::errText(model)));
        m_model = *model;
    }

    void levelsAndRanksAreNumpys()
    {
        // np.quantile(np.arange(n), q, method="inverted_cdf") for a few n, worked by hand: the
        // smallest rank r (0-based) with r + 1 >= q * n.
        QCOMPARE(Quantiles::rank(1, 0.01), std::uint64_t(0));
        QCOMPARE(Quantiles::rank(100, 0.01), std::uint64_t(0));
        QCOMPARE(Quantiles::rank(101, 0.01), std::uint64_t(1));
        QCOMPARE(Quantiles::rank(10, 0.5), std::uint64_t(4));
        QCOMPARE(Quantiles::rank(11, 0.5), std::uint64_t(5));
        QCOMPARE(Quantiles::rank(4, 0.75), std::uint64_t(2));
        QCOMPARE(Quantiles::rank(100, 0.99), std::uint64_t(98));
    }

    void analyzerMatchesNumpy_data()
    {
        QTest::addColumn<qint64>("target");
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
            QTest::newRow(hwy::TargetName(target)) << static_cast<qint64>(target);
    }
    void analyzerMatchesNumpy()
    {
        QFETCH(qint64, target);
        hwy::SetSupportedTargetsForTest(target);
        const auto restore = qScopeGuard([] { hwy::SetSupportedTargetsForTest(0); });
        for (std::size_t i = 0; i < m_cases.size(); ++i) {
            const Case& c = m_cases[i];
            const int index = m_model->indexOf(c.name);
            TensorAnalyzer analyzer(m_model->location(index),
                                    m_model->tensors()[static_cast<std::size_t>(index)].info);
            auto a = analyzer.analyze(16, true, true);
            QVERIFY2(a, qPrintable(test::errText(a)));
            const ValueStats& v = a->stats.values;
            QVERIFY2(v.quantiles == c.quantiles,
                     qPrintable(c.name + QStringLiteral(": got ") + describe(v.quantiles) +
                                QStringLiteral(", numpy ") + describe(c.quantiles)));
            QCOMPARE(v.zeros, c.zeros);
            QCOMPARE(v.zeroShare(), static_cast<double>(c.zeros) / static_cast<double>(c.elements));
        }
    }

    // The scan: chunks of 4 MiB (weights_F32 spans three), partial counts joined across threads.
    void scanMatchesNumpy_data()
    {
        QTest::addColumn<int>("bins");
        QTest::newRow("statistics only") << 0;
        QTest::newRow("with histograms") << 64;
    }
    void scanMatchesNumpy()
    {
        QFETCH(int, bins);
        ScanOptions options;
        options.quantiles = true;
        options.histogramBins = bins;
        options.threads = 2;
        options.chunkBytes = TensorBlockReader::kReadBytes;
        auto result = ModelScanner(m_model, options).run();
        QVERIFY2(result, qPrintable(test::errText(result)));
        for (const Case& c : m_cases) {
            const auto it = std::find_if(result->tensors.begin(), result->tensors.end(),
                                         [&](const TensorStats& t) { return t.name == c.name; });
            QVERIFY(it != result->tensors.end());
            QVERIFY2(it->values.quantiles == c.quantiles,
                     qPrintable(c.name + QStringLiteral(": got ") + describe(it->values.quantiles) +
                                QStringLiteral(", numpy ") + describe(c.quantiles)));
        }
    }

    void scanWithoutQuantilesLeavesThemOut()
    {
        ScanOptions options; // quantiles off by default: a scan of wide dtypes stays one pass
        auto result = ModelScanner(m_model, options).run();
        QVERIFY2(result, qPrintable(test::errText(result)));
        for (const TensorStats& t : result->tensors)
            QVERIFY2(!t.values.quantiles, qPrintable(t.name));
    }

private:
    QTemporaryDir m_dir;
    std::vector<Case> m_cases;
    std::vector<QByteArray> m_bytes;
    std::shared_ptr<const Checkpoint> m_model;
};

QTEST_GUILESS_MAIN(TestQuantiles)
#include "tst_quantiles.moc"
