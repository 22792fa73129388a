// The anomaly walk's index (core/analysis/AnomalyIndex.h) on files it reads as the window does:
// NaN, +Inf, -Inf and an extreme outlier planted at known flat indices, the first and the last
// element among them, in vectors, matrices and 3-D tensors of F32, F16 and BF16, across more than
// one read block. The outlier rule is the scan's: a value 20 standard deviations out is not one.
#include "AnalysisTestUtil.h"

#include "analysis/AnomalyIndex.h"
#include "analysis/ScanFindings.h"
#include "analysis/TensorAnalyzer.h"
#include "checkpoint/Checkpoint.h"
#include "convert/DtypeConverter.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ts;
using namespace ts::test;

namespace {

using Kind = AnomalyIndex::Kind;

constexpr std::uint64_t kElements = 6000; // more than one 4096-element block

struct Planted {
    std::uint64_t index;
    Kind kind;
};

// Small weights with the anomalies planted; 3.0 is far out (about 20 standard deviations) but not
// an extreme outlier by the scan's rule, and 3e4 is one (and fits F16).
std::vector<float> plantedValues(std::vector<Planted>& planted)
{
    std::vector<float> v = smallWeights(kElements, 0.5f);
    const float inf = std::numeric_limits<float>::infinity();
    planted = {{0, Kind::NaN},
               {kElements / 3, Kind::PosInf},
               {kElements / 2 + 1, Kind::NegInf},
               {kElements - 2, Kind::Outlier},
               {kElements - 1, Kind::NaN}};
    v[0] = std::nanf("");
    v[kElements / 4] = 3.0f;
    v[kElements / 3] = inf;
    v[kElements / 2 + 1] = -inf;
    v[kElements - 2] = 3e4f;
    v[kElements - 1] = std::nanf("");
    return v;
}

QByteArray encode(const std::vector<float>& values, Dtype dtype)
{
    const QByteArray f32 = bytesOf(values);
    if (dtype == Dtype::F32)
        return f32;
    QByteArray out(static_cast<qsizetype>(values.size() * 2), Qt::Uninitialized);
    ConversionCounts ignored;
    DtypeConverter::convert(Dtype::F32, dtype, reinterpret_cast<const std::byte*>(f32.constData()),
                            reinterpret_cast<std::byte*>(out.data()), values.size(), ignored);
    return out;
}

// The index of the one tensor of `path`, with the statistics the tensor view computes for it.
struct Indexed {
    std::shared_ptr<const Checkpoint> model;
    TensorStats stats;
};

Indexed openAndAnalyze(const QString& path)
{
    Indexed out;
    out.model = openCheckpoint(path);
    if (!out.model)
        return out;
    TensorAnalyzer analyzer(out.model->location(0), out.model->tensors()[0].info);
    auto stats = analyzer.stats();
    if (stats)
        out.stats = stats.value();
    else
        out.model.reset();
    return out;
}

QString describe(const AnomalyIndex& index)
{
    QStringList parts;
    for (const auto& p : index.positions())
        parts << QStringLiteral("%1:%2").arg(p.index).arg(static_cast<int>(p.kind));
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestAnomalyIndex : public QObject {
    Q_OBJECT
private slots:
    void findsPlantedAnomaliesInOrder_data();
    void findsPlantedAnomaliesInOrder();
    void keepsAtMostCapPositions();
    void cleanTensorNeedsNoRead();
    void cancelStops();

private:
    QTemporaryDir m_dir;
};

void TestAnomalyIndex::findsPlantedAnomaliesInOrder_data()
{
    QTest::addColumn<int>("dtypeCode");
    QTest::addColumn<std::vector<std::uint64_t>>("shape");
    for (const Dtype dtype : {Dtype::F32, Dtype::F16, Dtype::BF16}) {
        const QString name = dtypeName(dtype);
        QTest::addRow("%s 1-D", qPrintable(name))
            << static_cast<int>(dtype) << std::vector<std::uint64_t>{kElements};
        QTest::addRow("%s 2-D", qPrintable(name))
            << static_cast<int>(dtype) << std::vector<std::uint64_t>{60, 100};
        QTest::addRow("%s 3-D", qPrintable(name))
            << static_cast<int>(dtype) << std::vector<std::uint64_t>{3, 40, 50};
    }
}

void TestAnomalyIndex::findsPlantedAnomaliesInOrder()
{
    QFETCH(int, dtypeCode);
    QFETCH(std::vector<std::uint64_t>, shape);
    const auto dtype = static_cast<Dtype>(dtypeCode);
    std::vector<Planted> planted;
    const std::vector<float> values = plantedValues(planted);
    const QString path =
        m_dir.filePath(QStringLiteral("planted-%1-%2.safetensors").arg(dtypeName(dtype)).arg(shape.size()));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("w"), dtype, shape, encode(values, dtype)}}));
    const Indexed t = openAndAnalyze(path);
    QVERIFY(t.model);
    QVERIFY(AnomalyIndex::mayHoldAny(t.stats.values));

    const auto found = AnomalyIndex::find(t.model->location(0), t.model->tensors()[0].info, t.stats.values);
    QVERIFY2(found, qPrintable(errText(found)));
    const AnomalyIndex& index = found.value();
    QCOMPARE(index.positions().size(), planted.size());
    for (std::size_t i = 0; i < planted.size(); ++i) {
        QVERIFY2(index.positions()[i].index == planted[i].index &&
                     index.positions()[i].kind == planted[i].kind,
                 qPrintable(describe(index)));
    }
    QCOMPARE(index.total(Kind::NaN), std::uint64_t{2});
    QCOMPARE(index.total(Kind::PosInf), std::uint64_t{1});
    QCOMPARE(index.total(Kind::NegInf), std::uint64_t{1});
    QCOMPARE(index.total(Kind::Outlier), std::uint64_t{1});
    QVERIFY(!index.truncated());
    // The index's outlier is the one the scan reports.
    QCOMPARE(t.stats.values.absmaxIndex.value_or(0), std::uint64_t{kElements - 2});
    QVERIFY(ScanFindings::outlierScore(t.stats.values).value_or(0) > ScanFindings::kOutlierZ);
}

void TestAnomalyIndex::keepsAtMostCapPositions()
{
    // Every third element NaN: 2,000 of them, of which a cap of 50 keeps the first 50.
    std::vector<float> values = smallWeights(kElements, 0.5f);
    for (std::uint64_t i = 0; i < kElements; i += 3)
        values[i] = std::nanf("");
    const QString path = m_dir.filePath(QStringLiteral("many.safetensors"));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("w"), Dtype::F32, {kElements}, bytesOf(values)}}));
    const Indexed t = openAndAnalyze(path);
    QVERIFY(t.model);
    const auto found =
        AnomalyIndex::find(t.model->location(0), t.model->tensors()[0].info, t.stats.values, {}, 50);
    QVERIFY2(found, qPrintable(errText(found)));
    QCOMPARE(found->positions().size(), std::size_t{50});
    QCOMPARE(found->positions().back().index, std::uint64_t{49 * 3});
    QCOMPARE(found->total(Kind::NaN), kElements / 3);
    QVERIFY(found->truncated());
}

void TestAnomalyIndex::cleanTensorNeedsNoRead()
{
    std::vector<float> values = smallWeights(kElements, 0.5f);
    values[17] = 3.0f; // far out, not extreme
    const QString path = m_dir.filePath(QStringLiteral("clean.safetensors"));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("w"), Dtype::F32, {kElements}, bytesOf(values)}}));
    const Indexed t = openAndAnalyze(path);
    QVERIFY(t.model);
    QVERIFY(!AnomalyIndex::mayHoldAny(t.stats.values));
    const auto found = AnomalyIndex::find(t.model->location(0), t.model->tensors()[0].info, t.stats.values);
    QVERIFY(found);
    QVERIFY(found->positions().empty());
    QCOMPARE(found->total(), std::uint64_t{0});
}

void TestAnomalyIndex::cancelStops()
{
    std::vector<Planted> planted;
    const QString path = m_dir.filePath(QStringLiteral("cancel.safetensors"));
    QVERIFY(writeSafetensors(
        path, {{QStringLiteral("w"), Dtype::F32, {kElements}, bytesOf(plantedValues(planted))}}));
    const Indexed t = openAndAnalyze(path);
    QVERIFY(t.model);
    JobControl control;
    control.cancel.cancel();
    const auto found =
        AnomalyIndex::find(t.model->location(0), t.model->tensors()[0].info, t.stats.values, control);
    QVERIFY(!found);
    QCOMPARE(found.error().code, ErrorCode::Cancelled);
}

QTEST_GUILESS_MAIN(TestAnomalyIndex)
#include "tst_anomaly_index.moc"
