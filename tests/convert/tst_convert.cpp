// Conversion: values against numpy and first-principles rounding, files against the reference
// layout, selection/renaming/overrides, sharding and merging, and the CLI.
#include "ConvertTestUtil.h"

#include "checkpoint/Checkpoint.h"
#include "codec/DtypeDecoder.h"
#include "convert/ByteSize.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "convert/DtypeConverter.h"
#include "format/HeaderSerializer.h"
#include "format/SafetensorsFile.h"
#include "format/ShardIndex.h"
#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"
#include "write/StagingLock.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <hwy/targets.h>

#include <sys/file.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace ts;
using namespace ts::test;

namespace {

// Inputs that probe every rounding rule of every target: special values, each target code's exact
// value, the midpoints between neighbours (ties) and one step either side of them, and random bit
// patterns over the whole float32 range (subnormals and NaNs included).
std::vector<double> probeValues()
{
    std::vector<double> v{0.0,
                          -0.0,
                          1.0,
                          -1.0,
                          HUGE_VAL,
                          -HUGE_VAL,
                          std::nan(""),
                          -std::nan(""),
                          65504,
                          65519.99,
                          65520,
                          65536,
                          448,
                          464,
                          465,
                          480,
                          500,
                          57344,
                          61440,
                          61441,
                          3.0e38,
                          -3.0e38,
                          1e-30,
                          -1e-30,
                          1e-45,
                          std::ldexp(1.0, -25),
                          std::ldexp(1.0, -24),
                          std::ldexp(1.0, -149),
                          std::ldexp(1.0, -133),
                          std::ldexp(1.5, -24),
                          3.4028234663852886e38};
    for (Dtype d : {Dtype::F16, Dtype::BF16, Dtype::F8_E4M3, Dtype::F8_E5M2}) {
        const std::uint32_t codes = dtypeBits(d) == 8 ? 256 : 65536;
        const std::uint32_t step = d == Dtype::BF16 ? 7 : 1; // BF16: a sample of codes suffices
        for (std::uint32_t c = 0; c + 1 < codes; c += step) {
            std::byte b[2]{std::byte(c & 0xff), std::byte(c >> 8)};
            std::byte n[2]{std::byte((c + 1) & 0xff), std::byte((c + 1) >> 8)};
            const std::size_t size = static_cast<std::size_t>(dtypeBits(d) / 8);
            const double a = decode::element(d, std::span<const std::byte>(b, size), 0);
            const double z = decode::element(d, std::span<const std::byte>(n, size), 0);
            if (!std::isfinite(a) || !std::isfinite(z) || std::signbit(a) != std::signbit(z))
                continue;
            const double mid = (a + z) / 2;
            v.push_back(a);
            v.push_back(mid);
            v.push_back(static_cast<double>(std::nextafter(static_cast<float>(mid), HUGE_VALF)));
            v.push_back(static_cast<double>(std::nextafter(static_cast<float>(mid), -HUGE_VALF)));
            // Only a double can sit this close to a tie: catches double rounding through float.
            v.push_back(std::nextafter(mid, HUGE_VAL));
            v.push_back(std::nextafter(mid, -HUGE_VAL));
        }
    }
    QRandomGenerator rng(20261129);
    for (int i = 0; i < 100000; ++i) {
        const std::uint32_t bits = rng.generate();
        v.push_back(static_cast<double>(std::bit_cast<float>(bits)));
        v.push_back(std::bit_cast<double>(rng.generate64()));
    }
    return v;
}

std::vector<float> asFloats(const std::vector<double>& v)
{
    std::vector<float> f(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        f[i] = static_cast<float>(v[i]);
    return f;
}

bool isNanCode(Dtype d, const char* p)
{
    const auto* bytes = reinterpret_cast<const std::byte*>(p);
    return std::isnan(decode::element(d, std::span(bytes, static_cast<std::size_t>(dtypeBits(d) / 8)), 0));
}

// Element-wise equality, where NaN equals any NaN of the same sign.
QString compareElements(Dtype d, const QByteArray& got, const QByteArray& want)
{
    const int size = dtypeBits(d) / 8;
    if (got.size() != want.size())
        return QStringLiteral("sizes differ: %1 vs %2").arg(got.size()).arg(want.size());
    int mismatches = 0;
    QString first;
    for (qsizetype i = 0; i < got.size(); i += size) {
        const char* g = got.constData() + i;
        const char* w = want.constData() + i;
        if (std::memcmp(g, w, static_cast<std::size_t>(size)) == 0)
            continue;
        const bool signSame = ((g[size - 1] ^ w[size - 1]) & 0x80) == 0;
        if (isNanCode(d, g) && isNanCode(d, w) && signSame)
            continue;
        if (mismatches++ == 0)
            first = QStringLiteral("element %1: got %2, want %3")
                        .arg(i / size)
                        .arg(QString::fromLatin1(QByteArray(g, size).toHex()),
                             QString::fromLatin1(QByteArray(w, size).toHex()));
    }
    return mismatches ? QStringLiteral("%1 mismatches; first %2").arg(mismatches).arg(first) : QString();
}

QByteArray tensorBytes(const SafetensorsFile& file, const QString& name)
{
    const int i = file.indexOf(name);
    if (i < 0)
        return {};
    const TensorLocation loc = file.location(file.tensors()[static_cast<std::size_t>(i)]);
    QByteArray out(static_cast<qsizetype>(loc.length), Qt::Uninitialized);
    if (!loc.source->read(
            loc.offset, std::as_writable_bytes(std::span(out.data(), static_cast<std::size_t>(out.size())))))
        return {};
    return out;
}

} // namespace

class TestConvert : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void valuesMatchIndependentReference_data();
    void valuesMatchIndependentReference();
    void f16NanPayloadDoesNotDependOnTheCpu();
    void narrowSourcesMatchIndependentReference_data();
    void narrowSourcesMatchIndependentReference();
    void widenAndNarrowAreExactRoundTrips();
    void selectionRenameAndOverrides();
    void renameClashNamesBothTensors();
    void shardThenMergeRoundTrips();
    void cancelledWriteLeavesNothing();
    void killedShardedWriteIsCleanedUpByTheNext();
    void byteSizes();
    void cliConvertReportsBeforeWriting();
    void neverWritesOverAnInput();
    void realFixtureRoundTrip();

private:
    QTemporaryDir m_dir;
    std::vector<double> m_values;
    QString m_input;
};

void TestConvert::initTestCase()
{
    if (!havePythonNumpy())
        QFAIL("/usr/bin/python3 with numpy is needed for the independent reference values (apt install "
              "python3-numpy)");
    m_values = probeValues();
    const std::vector<float> f32 = asFloats(m_values);
    std::vector<std::int32_t> ints{1, 2, 3, -4};
    std::vector<std::uint8_t> flags{1, 0, 1};
    m_input = m_dir.filePath(QStringLiteral("probe.safetensors"));
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    QVERIFY(writeSafetensors(m_input,
                             {{QStringLiteral("x32"), Dtype::F32, {f32.size()}, bytesOf(f32)},
                              {QStringLiteral("x64"), Dtype::F64, {m_values.size()}, bytesOf(m_values)},
                              {QStringLiteral("ints"), Dtype::I32, {2, 2}, bytesOf(ints)},
                              {QStringLiteral("flags"), Dtype::BOOL, {3}, bytesOf(flags)}},
                             md));
    QFile raw32(m_dir.filePath(QStringLiteral("x32.bin")));
    QVERIFY(raw32.open(QIODevice::WriteOnly));
    raw32.write(bytesOf(f32));
    raw32.close();
    QFile raw64(m_dir.filePath(QStringLiteral("x64.bin")));
    QVERIFY(raw64.open(QIODevice::WriteOnly));
    raw64.write(bytesOf(m_values));
    raw64.close();
}

void TestConvert::valuesMatchIndependentReference_data()
{
    QTest::addColumn<QString>("target");
    for (const char* t : {"F16", "BF16", "F8_E4M3", "F8_E5M2", "F32", "F64"})
        QTest::newRow(t) << QString::fromLatin1(t);
}

void TestConvert::valuesMatchIndependentReference()
{
    QFETCH(QString, target);
    const Dtype to = *dtypeFromName(target);
    auto model = openCheckpoint(m_input);
    QVERIFY(model);
    ConvertOptions options;
    options.dtype = to;
    auto plan = Converter::plan({model}, options);
    QVERIFY(plan.ok());
    QVERIFY(Converter::measure(plan.value()).ok());
    const QString out = m_dir.filePath(QStringLiteral("out-%1.safetensors").arg(target));
    auto written = ConvertWriter::write(plan.value(), out, options);
    QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error().toString()));

    auto file = SafetensorsFile::open(out);
    QVERIFY2(file.ok(), "the converted file must re-open as valid");
    std::vector<WriterTensor> expectedTensors;
    for (const char* source : {"float32", "float64"}) {
        const QString name = QString::fromLatin1(source[5] == '3' ? "x32" : "x64");
        const QString want = m_dir.filePath(QStringLiteral("want-%1-%2.bin").arg(target, name));
        const auto py = runPython(
            QStringLiteral("reference_round.py"),
            {target, QString::fromLatin1(source), m_dir.filePath(name + QStringLiteral(".bin")), want});
        QVERIFY2(py.exitCode == 0, py.err.constData());
        const QList<QByteArray> counts = py.out.trimmed().split(' ');
        QCOMPARE(counts.size(), 3);
        const QByteArray expected = readFile(want);
        const QByteArray got = tensorBytes(**file, name);
        const QString diff = compareElements(to, got, expected);
        QVERIFY2(diff.isEmpty(), qPrintable(name + QStringLiteral(": ") + diff));
        const auto it = std::find_if(plan->tensors.begin(), plan->tensors.end(),
                                     [&](const PlannedTensor& t) { return t.name == name; });
        if (it->converts()) {
            QCOMPARE(it->counts.overflowed, counts[0].toULongLong());
            QCOMPARE(it->counts.underflowed, counts[1].toULongLong());
            QCOMPARE(it->counts.nan, counts[2].toULongLong());
        }
        // The reference layout is built from the file's own bytes (NaN payloads may differ from numpy's).
        expectedTensors.push_back(
            {name,
             to,
             {m_values.size()},
             {std::make_shared<MemorySource>(got), 0, static_cast<std::uint64_t>(got.size())}});
    }
    // Integers and BOOL are untouched by --dtype.
    QCOMPARE((*file)->tensors()[static_cast<std::size_t>((*file)->indexOf(QStringLiteral("ints")))].dtype,
             Dtype::I32);
    QCOMPARE(tensorBytes(**file, QStringLiteral("flags")), QByteArray("\x01\x00\x01", 3));
    auto original = SafetensorsFile::open(m_input);
    QVERIFY(original.ok());
    for (const char* keep : {"ints", "flags"}) {
        const QString name = QString::fromLatin1(keep);
        const TensorInfo& t = (*original)->tensors()[static_cast<std::size_t>((*original)->indexOf(name))];
        expectedTensors.push_back({name, t.dtype, t.shape, (*original)->location(t)});
    }
    // Byte-identical to the reference writer's layout for the same tensors.
    const std::vector<TensorInfo> layout = SafetensorsWriter::planLayout(expectedTensors);
    QByteArray expectedFile = serializeHeader(layout, (*original)->header().metadata);
    for (const WriterTensor& t : expectedTensors) {
        QByteArray bytes(static_cast<qsizetype>(t.data.length), Qt::Uninitialized);
        QVERIFY(
            t.data.source->read(t.data.offset, std::as_writable_bytes(std::span(bytes.data(), bytes.size())))
                .ok());
        expectedFile += bytes;
    }
    QCOMPARE(sha256(readFile(out)), sha256(expectedFile));
}

void TestConvert::f16NanPayloadDoesNotDependOnTheCpu()
{
    // Found by fuzz_convert: F16C keeps the top ten payload bits of a NaN (quiet bit set), the
    // portable kernel wrote 0x7e00 for every NaN, so a converted file depended on the CPU. Every
    // SIMD target the binary carries (and its scalar tail: 9 values) keeps the payload as F16C.
    const std::vector<std::uint32_t> nans = {0x7fc00000u, 0x7fffff00u, 0xffa02000u, 0x7f800001u, 0xff8fe000u,
                                             0x7fc00000u, 0x7fe00000u, 0xffffffffu, 0x7f802000u};
    const std::vector<std::uint16_t> want = {0x7e00, 0x7fff, 0xff01, 0x7e00, 0xfe7f,
                                             0x7e00, 0x7f00, 0xffff, 0x7e01};
    const auto restore = qScopeGuard([] { hwy::SetSupportedTargetsForTest(0); });
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (std::size_t repeat : {std::size_t(1), std::size_t(8)}) { // the tail alone; vectors and tail
            std::vector<std::uint32_t> in;
            std::vector<std::uint16_t> expected;
            for (std::size_t r = 0; r < repeat; ++r) {
                in.insert(in.end(), nans.begin(), nans.end());
                expected.insert(expected.end(), want.begin(), want.end());
            }
            std::vector<std::uint16_t> got(in.size());
            ConversionCounts counts;
            DtypeConverter::convert(Dtype::F32, Dtype::F16, reinterpret_cast<const std::byte*>(in.data()),
                                    reinterpret_cast<std::byte*>(got.data()), in.size(), counts);
            QVERIFY2(got == expected, hwy::TargetName(target));
            QCOMPARE(counts.nan, std::uint64_t(in.size()));
        }
    }
}

void TestConvert::narrowSourcesMatchIndependentReference_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("target");
    for (const char* from : {"F16", "BF16", "F8_E4M3", "F8_E5M2"}) {
        for (const char* to : {"F16", "BF16", "F8_E4M3", "F8_E5M2", "F32", "F64"}) {
            if (std::strcmp(from, to) != 0)
                QTest::addRow("%s->%s", from, to) << QString::fromLatin1(from) << QString::fromLatin1(to);
        }
    }
}

void TestConvert::narrowSourcesMatchIndependentReference()
{
    // Every code of the source format, converted; numpy decodes the source on its own.
    QFETCH(QString, source);
    QFETCH(QString, target);
    const Dtype from = *dtypeFromName(source);
    const Dtype to = *dtypeFromName(target);
    const std::size_t n = dtypeBits(from) == 8 ? 256 : 65536;
    const std::size_t inSize = static_cast<std::size_t>(dtypeBits(from) / 8);
    QByteArray codes(static_cast<qsizetype>(n * inSize), Qt::Uninitialized);
    for (std::size_t c = 0; c < n; ++c)
        std::memcpy(codes.data() + c * inSize, &c, inSize);
    const QString in = m_dir.filePath(QStringLiteral("codes-%1.bin").arg(source));
    QFile f(in);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(codes);
    f.close();
    QByteArray got(static_cast<qsizetype>(n) * dtypeBits(to) / 8, Qt::Uninitialized);
    ConversionCounts counts;
    DtypeConverter::convert(from, to, reinterpret_cast<const std::byte*>(codes.constData()),
                            reinterpret_cast<std::byte*>(got.data()), n, counts);
    const QString pyName = source == QLatin1String("F16")    ? QStringLiteral("float16")
                           : source == QLatin1String("BF16") ? QStringLiteral("bfloat16")
                                                             : source;
    const QString want = m_dir.filePath(QStringLiteral("want-codes-%1-%2.bin").arg(source, target));
    const auto py = runPython(QStringLiteral("reference_round.py"), {target, pyName, in, want});
    QVERIFY2(py.exitCode == 0, py.err.constData());
    const QList<QByteArray> c = py.out.trimmed().split(' ');
    QCOMPARE(c.size(), 3);
    const QString diff = compareElements(to, got, readFile(want));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QCOMPARE(counts.overflowed, c[0].toULongLong());
    QCOMPARE(counts.underflowed, c[1].toULongLong());
    QCOMPARE(counts.nan, c[2].toULongLong());
}

void TestConvert::widenAndNarrowAreExactRoundTrips()
{
    // Every code of each narrow format survives narrow -> F32 -> narrow and narrow -> F64 -> narrow.
    for (Dtype d : {Dtype::F16, Dtype::BF16, Dtype::F8_E4M3, Dtype::F8_E5M2}) {
        const std::size_t n = dtypeBits(d) == 8 ? 256 : 65536;
        const std::size_t size = static_cast<std::size_t>(dtypeBits(d) / 8);
        std::vector<std::byte> codes(n * size);
        for (std::size_t c = 0; c < n; ++c)
            std::memcpy(codes.data() + c * size, &c, size);
        for (Dtype wide : {Dtype::F32, Dtype::F64}) {
            std::vector<std::byte> mid(n * static_cast<std::size_t>(dtypeBits(wide) / 8));
            std::vector<std::byte> back(codes.size());
            ConversionCounts c1, c2;
            DtypeConverter::convert(d, wide, codes.data(), mid.data(), n, c1);
            DtypeConverter::convert(wide, d, mid.data(), back.data(), n, c2);
            QCOMPARE(c2.overflowed, 0u);
            QCOMPARE(c2.underflowed, 0u);
            QCOMPARE(c1.nan, c2.nan);
            const QString diff = compareElements(
                d,
                QByteArray(reinterpret_cast<const char*>(back.data()), static_cast<qsizetype>(back.size())),
                QByteArray(reinterpret_cast<const char*>(codes.data()),
                           static_cast<qsizetype>(codes.size())));
            QVERIFY2(diff.isEmpty(), qPrintable(dtypeName(d) + QStringLiteral(" via ") + dtypeName(wide) +
                                                QStringLiteral(": ") + diff));
        }
    }
}

void TestConvert::selectionRenameAndOverrides()
{
    const QString in = m_dir.filePath(QStringLiteral("sel.safetensors"));
    std::vector<float> f(6, 1.5f);
    std::vector<std::int64_t> ids(3, 7);
    QVERIFY(writeSafetensors(in,
                             {{QStringLiteral("model.layers.0.w"), Dtype::F32, {2, 3}, bytesOf(f)},
                              {QStringLiteral("model.layers.1.w"), Dtype::F32, {2, 3}, bytesOf(f)},
                              {QStringLiteral("model.norm"), Dtype::F32, {6}, bytesOf(f)},
                              {QStringLiteral("model.ids"), Dtype::I64, {3}, bytesOf(ids)},
                              {QStringLiteral("lm_head.w"), Dtype::F32, {6}, bytesOf(f)}},
                             std::nullopt));
    auto model = openCheckpoint(in);
    QVERIFY(model);
    ConvertOptions options;
    options.dtype = Dtype::BF16;
    options.dtypeFor = {{QStringLiteral("*.norm"), Dtype::F32}, {QStringLiteral("*.layers.1.*"), Dtype::F16}};
    options.exclude = {QStringLiteral("lm_head.*")};
    options.rename = {{QStringLiteral("^model\\."), QString()},
                      {QStringLiteral("layers\\.(\\d+)"), QStringLiteral("h\\1")}};
    options.setMetadata = {{QStringLiteral("converted"), QStringLiteral("yes")}};
    auto plan = Converter::plan({model}, options);
    QVERIFY2(plan.ok(), qPrintable(plan.ok() ? QString() : plan.error().toString()));
    QStringList got;
    for (const PlannedTensor& t : plan->tensors)
        got << t.name + QLatin1Char(':') + dtypeName(t.to);
    QCOMPARE(got, QStringList({QStringLiteral("h0.w:BF16"), QStringLiteral("h1.w:F16"),
                               QStringLiteral("ids:I64"), QStringLiteral("norm:F32")}));
    QCOMPARE(plan->metadata->value(QStringLiteral("converted")).value_or(QString()), QStringLiteral("yes"));
    // Only includes: a glob that matches nothing leaves nothing, which is an error.
    options.include = {QStringLiteral("nothing*")};
    QVERIFY(!Converter::plan({model}, options).ok());
    // Asking for an integer to become a float is refused, naming the tensor.
    ConvertOptions intToFloat;
    intToFloat.dtypeFor = {{QStringLiteral("model.ids"), Dtype::F16}};
    auto refused = Converter::plan({model}, intToFloat);
    QVERIFY(!refused.ok());
    QVERIFY(refused.error().message.contains(QStringLiteral("model.ids")));
}

void TestConvert::renameClashNamesBothTensors()
{
    const QString in = m_dir.filePath(QStringLiteral("clash.safetensors"));
    std::vector<float> f(2, 1.0f);
    QVERIFY(writeSafetensors(in,
                             {{QStringLiteral("a.weight"), Dtype::F32, {2}, bytesOf(f)},
                              {QStringLiteral("b.weight"), Dtype::F32, {2}, bytesOf(f)}},
                             std::nullopt));
    const auto r = runCli({QStringLiteral("convert"), in, QStringLiteral("-o"),
                           m_dir.filePath(QStringLiteral("clash-out.safetensors")),
                           QStringLiteral("--rename"), QStringLiteral("^[ab]\\.=")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("\"a.weight\"") && r.err.contains("\"b.weight\"") && r.err.contains("\"weight\""),
             r.err.constData());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("clash-out.safetensors"))));
}

void TestConvert::shardThenMergeRoundTrips()
{
    const QString x = m_dir.filePath(QStringLiteral("x.safetensors"));
    std::vector<TestTensor> tensors;
    QRandomGenerator rng(7);
    for (int i = 0; i < 23; ++i) {
        const Dtype d = i % 3 == 0 ? Dtype::F16 : (i % 3 == 1 ? Dtype::F32 : Dtype::I8);
        const std::uint64_t elements = 100 + rng.bounded(5000);
        QByteArray bytes(static_cast<qsizetype>(elements) * dtypeBits(d) / 8, Qt::Uninitialized);
        rng.fillRange(reinterpret_cast<quint32*>(bytes.data()), bytes.size() / 4);
        tensors.push_back(
            {QStringLiteral("layer.%1.w").arg(i, 2, 10, QLatin1Char('0')), d, {elements}, bytes});
    }
    tensors.push_back(
        {QStringLiteral("big"), Dtype::F32, {20000}, QByteArray(80000, '\x11')}); // bigger than a shard
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    md.set(QStringLiteral("ünïcode"), QStringLiteral("✓"));
    QVERIFY(writeSafetensors(x, tensors, md));

    const QString folder = m_dir.filePath(QStringLiteral("sharded"));
    auto r = runCli({QStringLiteral("convert"), x, QStringLiteral("-o"), folder,
                     QStringLiteral("--shard-size"), QStringLiteral("20KB")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString indexPath = folder + QStringLiteral("/model.safetensors.index.json");
    auto index = ShardIndex::load(indexPath);
    QVERIFY(index.ok());
    QVERIFY(index->shardFiles.size() > 3);
    const QString last = ConvertWriter::shardFileName(index->shardFiles.size() - 1, index->shardFiles.size());
    QVERIFY(QFile::exists(folder + QLatin1Char('/') + last));
    auto original = SafetensorsFile::open(x);
    QVERIFY(original.ok());
    QCOMPARE(index->totalSize.value_or(0), (*original)->header().dataSize());
    QCOMPARE(index->weightMap.size(), tensors.size());
    // Every shard is at most 20 KB, except a single tensor that is bigger on its own.
    for (const QString& shard : index->shardFiles) {
        auto s = SafetensorsFile::open(folder + QLatin1Char('/') + shard);
        QVERIFY(s.ok());
        QVERIFY((*s)->header().dataSize() <= 20000 || (*s)->tensors().size() == 1);
        QCOMPARE((*s)->header().metadata, (*original)->header().metadata);
    }
    // The index text is exactly what Python's json.dumps(indent=2, sort_keys=True) writes.
    const QString redump = m_dir.filePath(QStringLiteral("redump.json"));
    const auto py = ts::test::runPython(QStringLiteral("redump_json.py"), {indexPath, redump});
    QVERIFY2(py.exitCode == 0, py.err.constData());
    QCOMPARE(readFile(indexPath), readFile(redump));

    // merge(shard(x)) == x, byte for byte (x was written in the reference layout).
    const QString merged = m_dir.filePath(QStringLiteral("merged.safetensors"));
    r = runCli({QStringLiteral("convert"), indexPath, QStringLiteral("-o"), merged});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(sha256(readFile(merged)), sha256(readFile(x)));
    // Several single-file inputs merge too: the shard files given one by one.
    QStringList args{QStringLiteral("convert")};
    for (const QString& shard : index->shardFiles)
        args << folder + QLatin1Char('/') + shard;
    const QString merged2 = m_dir.filePath(QStringLiteral("merged2.safetensors"));
    args << QStringLiteral("-o") << merged2;
    r = runCli(args);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(sha256(readFile(merged2)), sha256(readFile(x)));
}

void TestConvert::cancelledWriteLeavesNothing()
{
    // Cancelled half way, nothing appears under the final names: no file, no shard, no index.
    auto model = openCheckpoint(m_input);
    QVERIFY(model);
    ConvertOptions options;
    options.dtype = Dtype::BF16;
    auto plan = Converter::plan({model}, options);
    QVERIFY(plan.ok());
    const QString out = m_dir.filePath(QStringLiteral("cancelled.safetensors"));
    // A control whose token is cancelled by its own sink at the first report that `when` accepts.
    const auto cancelWhen = [](auto when) {
        const CancelToken token;
        return JobControl{token, ProgressSink(
                                     [token, when](const Progress& p) {
                                         if (when(p))
                                             token.cancel();
                                     },
                                     std::chrono::milliseconds(0))};
    };
    const auto always = [](const Progress&) { return true; };
    auto r = ConvertWriter::write(plan.value(), out, options, cancelWhen(always));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::Cancelled);
    QVERIFY(!QFile::exists(out));
    const QString folder = m_dir.filePath(QStringLiteral("cancelled-shards"));
    options.shardSize = 100000;
    // Cancelled past half way, when some shards are complete: not one of them may stay.
    const auto pastHalf = [](const Progress& p) { return p.bytesDone > p.bytesTotal / 2; };
    r = ConvertWriter::write(plan.value(), folder, options, cancelWhen(pastHalf));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::Cancelled);
    QVERIFY(ConvertWriter::splitIntoShards(plan.value(), 100000).size() >= 3);
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden), QStringList{});

    // Over the shards of an earlier complete run, a cancelled run changes none of its files.
    auto done = ConvertWriter::write(plan.value(), folder, options, {});
    QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().toString()));
    QMap<QString, QByteArray> before;
    for (const QString& f : QDir(folder).entryList(QDir::Files | QDir::Hidden))
        before[f] = sha256(readFile(QDir(folder).filePath(f)));
    ConvertOptions f16 = options;
    f16.dtype = Dtype::F16;
    auto planF16 = Converter::plan({model}, f16);
    QVERIFY(planF16.ok());
    r = ConvertWriter::write(planF16.value(), folder, f16, cancelWhen(pastHalf));
    QVERIFY(!r.ok());
    QMap<QString, QByteArray> after;
    for (const QString& f : QDir(folder).entryList(QDir::Files | QDir::Hidden))
        after[f] = sha256(readFile(QDir(folder).filePath(f)));
    QCOMPARE(after, before);
    QVERIFY(QFile::exists(folder + QStringLiteral("/model.safetensors.index.json"))); // the earlier run's
    // No temporaries left behind either.
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral("tensorscope-")).size(),
             0);
    QCOMPARE(
        QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral("cancelled")).size(),
        0);
}

// A sharded convert killed with SIGKILL cannot remove its staged shards; the next sharded write
// into that folder does (their run's staging lock is free), and leaves a live run's files alone.
void TestConvert::killedShardedWriteIsCleanedUpByTheNext()
{
    // 64 tensors of 8 MiB of F32 zeros in a sparse file: 32 shards of 8 MiB once in F16.
    const QString input = m_dir.filePath(QStringLiteral("sparse-512m.safetensors"));
    {
        const std::uint64_t each = 8ull << 20;
        std::string header = "{";
        for (int t = 0; t < 64; ++t) {
            header += (t ? ",\"w." : "\"w.") + std::to_string(100 + t) + "\":{\"dtype\":\"F32\",\"shape\":[" +
                      std::to_string(each / 4) + "],\"data_offsets\":[" + std::to_string(t * each) + "," +
                      std::to_string((t + 1) * each) + "]}";
        }
        header += "}";
        while (header.size() % 8)
            header += ' ';
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::uint64_t n = header.size();
        f.write(reinterpret_cast<const char*>(&n), 8);
        f.write(header.data(), static_cast<qint64>(header.size()));
        QVERIFY(f.resize(static_cast<qint64>(8 + header.size() + 64 * each)));
    }
    const QString folder = m_dir.filePath(QStringLiteral("killed-shards"));
    QVERIFY(QDir().mkpath(folder));
    const auto hidden = [&] {
        return QDir(folder)
            .entryList(QDir::Files | QDir::Hidden)
            .filter(QRegularExpression(QStringLiteral("^\\.")));
    };

    // A live run elsewhere: its lock is held (by this process, through its own open file), so
    // its staged file must survive the sweep.
    const QString liveLock = QDir(folder).filePath(QStringLiteral(".tensorscope-stage-1.lock"));
    const QString liveStage =
        QDir(folder).filePath(QStringLiteral(".tensorscope-stage-1-model-00001-of-00002.safetensors"));
    QFile live(liveLock);
    QVERIFY(live.open(QIODevice::WriteOnly));
    QCOMPARE(::flock(live.handle(), LOCK_EX | LOCK_NB), 0);
    QFile(liveStage).open(QIODevice::WriteOnly);

    QProcess cli;
    cli.start(cliPath(),
              {QStringLiteral("convert"), input, QStringLiteral("-o"), folder, QStringLiteral("--dtype"),
               QStringLiteral("F16"), QStringLiteral("--shard-size"), QStringLiteral("8MiB")});
    QVERIFY(cli.waitForStarted());
    // Kill it as soon as one shard is staged (complete under its hidden name), long before 32 are.
    // The CLI reads the whole 512 MiB input for its report before it writes: a minute here, and
    // TS_TIMEOUT_SCALE minutes in the sanitizer build, which runs it at a fraction of the speed.
    const qint64 budgetMs = 60000ll * std::max(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"));
    QElapsedTimer waited;
    waited.start();
    QStringList staged;
    while (waited.elapsed() < budgetMs && cli.state() == QProcess::Running) {
        staged = hidden().filter(QRegularExpression(QStringLiteral("^\\.tensorscope-stage-\\d+-model-")));
        staged.removeAll(QFileInfo(liveStage).fileName());
        if (!staged.isEmpty())
            break;
        cli.waitForFinished(2); // also lets QProcess notice an early exit
    }
    QVERIFY2(!staged.isEmpty(), "the convert should have staged a shard within its time budget");
    QVERIFY2(cli.state() == QProcess::Running, "the convert finished before it could be killed");
    cli.kill();
    QVERIFY(cli.waitForFinished());
    const QStringList left = hidden();
    qInfo("left by the killed run: %s", qPrintable(left.join(QStringLiteral(", "))));
    QVERIFY(left.size() >= 3); // the live run's two files, the killed run's lock and shard(s)
    QVERIFY(QDir(folder).entryList({QStringLiteral("model*")}, QDir::Files).isEmpty());

    // The next run sweeps the killed run's files and writes its own.
    auto model = openCheckpoint(input);
    QVERIFY(model);
    ConvertOptions options;
    options.dtype = Dtype::F16;
    options.shardSize = 8u << 20;
    auto plan = Converter::plan({model}, options);
    QVERIFY(plan.ok());
    auto written = ConvertWriter::write(plan.value(), folder, options, {});
    QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error().toString()));
    QCOMPARE(written.value().size(), 33); // 32 shards and the index
    QStringList remaining = hidden();
    remaining.sort();
    QStringList liveFiles{QFileInfo(liveLock).fileName(), QFileInfo(liveStage).fileName()};
    liveFiles.sort();
    QCOMPARE(remaining, liveFiles);

    // Once that run is gone too, its files go at the next sweep.
    live.close();
    QCOMPARE(StagingLock::removeAbandoned(folder), 2);
    QVERIFY(hidden().isEmpty());
}

void TestConvert::byteSizes()
{
    QCOMPARE(parseByteSize(QStringLiteral("500MB")).value_or(0), 500000000u);
    QCOMPARE(parseByteSize(QStringLiteral("2GB")).value_or(0), 2000000000u);
    QCOMPARE(parseByteSize(QStringLiteral("1GiB")).value_or(0), 1073741824u);
    QCOMPARE(parseByteSize(QStringLiteral("1.5 kb")).value_or(0), 1500u);
    QCOMPARE(parseByteSize(QStringLiteral("4096")).value_or(0), 4096u);
    QCOMPARE(parseByteSize(QStringLiteral("10KiB")).value_or(0), 10240u);
    QVERIFY(!parseByteSize(QStringLiteral("0")));
    QVERIFY(!parseByteSize(QStringLiteral("12 parsecs")));
    QVERIFY(!parseByteSize(QStringLiteral("-5MB")));
}

void TestConvert::cliConvertReportsBeforeWriting()
{
    const QString in = m_dir.filePath(QStringLiteral("report.safetensors"));
    std::vector<float> f{
        1.0f, 70000.0f, -1e9f, 1e-9f, std::nanf(""), 0.0f, -std::numeric_limits<float>::infinity()};
    QVERIFY(writeSafetensors(in, {{QStringLiteral("w"), Dtype::F32, {7}, bytesOf(f)}}, std::nullopt));
    const QByteArray inputHash = sha256(readFile(in));
    const QString out = m_dir.filePath(QStringLiteral("report-out.safetensors"));
    auto r = runCli({QStringLiteral("convert"), in, QStringLiteral("-o"), out, QStringLiteral("--dtype"),
                     QStringLiteral("F16"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!QFile::exists(out));
    const QJsonObject report = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(report.value(QStringLiteral("overflowed")).toInt(), 2);
    QCOMPARE(report.value(QStringLiteral("underflowed")).toInt(), 1);
    QCOMPARE(report.value(QStringLiteral("nan")).toInt(), 1);
    QCOMPARE(report.value(QStringLiteral("inf")).toInt(), 1); // the source's -Inf, kept, not an overflow
    QVERIFY(r.err.contains("warning"));
    r = runCli({QStringLiteral("convert"), in, QStringLiteral("-o"), out, QStringLiteral("--dtype"),
                QStringLiteral("F16")});
    QCOMPARE(r.exitCode, 0);
    // The report comes before the file is written.
    QVERIFY(r.out.indexOf("2 overflowed") >= 0 && r.out.indexOf("2 overflowed") < r.out.indexOf("wrote"));
    QCOMPARE(sha256(readFile(in)), inputHash);
    // Never over the input.
    r = runCli({QStringLiteral("convert"), in, QStringLiteral("-o"), in, QStringLiteral("--dtype"),
                QStringLiteral("F16")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(sha256(readFile(in)), inputHash);
}

// The output is compared with every input as a file on disk: a hard link or a symlink to an
// input, a second input of a merge, and the index of a folder opened as a model are all refused,
// before anything is written.
void TestConvert::neverWritesOverAnInput()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.safetensors"));
    const QString b = dir.filePath(QStringLiteral("b.safetensors"));
    std::vector<float> f{1.0f, 2.0f, 3.0f, 4.0f};
    QVERIFY(writeSafetensors(a, {{QStringLiteral("x"), Dtype::F32, {4}, bytesOf(f)}}, std::nullopt));
    QVERIFY(writeSafetensors(b, {{QStringLiteral("y"), Dtype::F32, {2, 2}, bytesOf(f)}}, std::nullopt));
    const QString hard = dir.filePath(QStringLiteral("hard.safetensors"));
    QCOMPARE(::link(QFile::encodeName(a).constData(), QFile::encodeName(hard).constData()), 0);
    const QString soft = dir.filePath(QStringLiteral("soft.safetensors"));
    QVERIFY(QFile::link(b, soft));
    const QByteArray hashA = sha256(readFile(a));
    const QByteArray hashB = sha256(readFile(b));
    const auto refused = [](const ProcessRun& r) {
        return r.exitCode == 2 && r.err.contains("convert never writes over its input");
    };

    auto r = runCli({QStringLiteral("convert"), a, QStringLiteral("-o"), hard, QStringLiteral("--dtype"),
                     QStringLiteral("F16")});
    QVERIFY2(refused(r), r.err.constData());
    r = runCli({QStringLiteral("convert"), a, b, QStringLiteral("-o"), soft});
    QVERIFY2(refused(r), r.err.constData());
    QVERIFY2(r.err.contains(QFile::encodeName(b)), r.err.constData()); // names the input it is
    QCOMPARE(sha256(readFile(a)), hashA);
    QCOMPARE(sha256(readFile(b)), hashB);
    QVERIFY(QFileInfo(soft).isSymLink());

    // A folder of shards opened by the folder: its index is an input too. New shards of another
    // size would not collide with the old ones, but the index would be replaced by theirs.
    const QString folder = dir.filePath(QStringLiteral("sharded"));
    r = runCli({QStringLiteral("convert"), a, b, QStringLiteral("-o"), folder, QStringLiteral("--shard-size"),
                QStringLiteral("16B")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList before = QDir(folder).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    QCOMPARE(before.size(), 3); // two shards and the index
    const QString index = folder + QStringLiteral("/model.safetensors.index.json");
    const QByteArray indexHash = sha256(readFile(index));
    r = runCli({QStringLiteral("convert"), folder, QStringLiteral("-o"), folder,
                QStringLiteral("--shard-size"), QStringLiteral("1MB")});
    QVERIFY2(refused(r), r.err.constData());
    QVERIFY2(r.err.contains("model.safetensors.index.json"), r.err.constData());
    QCOMPARE(sha256(readFile(index)), indexHash);
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden, QDir::Name), before); // nothing written
}

void TestConvert::realFixtureRoundTrip()
{
    const QString fixture = realFixture(QStringLiteral("face_recognition_f16.safetensors"));
    TS_REQUIRE_FIXTURE(fixture);
    const QString wide = m_dir.filePath(QStringLiteral("face-f32.safetensors"));
    const QString back = m_dir.filePath(QStringLiteral("face-f16.safetensors"));
    auto r = runCli({QStringLiteral("convert"), fixture, QStringLiteral("-o"), wide,
                     QStringLiteral("--dtype"), QStringLiteral("F32")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({QStringLiteral("convert"), wide, QStringLiteral("-o"), back, QStringLiteral("--dtype"),
                QStringLiteral("F16")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto a = SafetensorsFile::open(fixture);
    auto b = SafetensorsFile::open(back);
    QVERIFY(a.ok() && b.ok());
    QCOMPARE((*b)->tensors().size(), (*a)->tensors().size());
    for (const TensorInfo& t : (*a)->tensors())
        QCOMPARE(tensorBytes(**b, t.name), tensorBytes(**a, t.name));
}

QTEST_GUILESS_MAIN(TestConvert)
#include "tst_convert.moc"
