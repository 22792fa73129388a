// HeaderScanner, the one-pass reader in front of the simdjson DOM (issue #21), must give exactly
// what the DOM reader gives wherever it gives anything, and must hand everything unusual to it.
// Compared on every conformance case, every real fixture and crafted headers: tensors (names,
// dtypes, shapes, offsets, order), metadata and warnings, word for word.
#include "Fixtures.h"

#include "format/HeaderScanner.h"
#include "format/HeaderSchema.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <simdjson.h>

namespace {

QString describe(const ts::Header& h)
{
    QStringList lines;
    for (const ts::TensorInfo& t : h.tensors) {
        QStringList dims;
        for (const std::uint64_t d : t.shape)
            dims << QString::number(d);
        lines << QStringLiteral("%1 %2 [%3] %4-%5")
                     .arg(t.name, ts::dtypeName(t.dtype), dims.join(QLatin1Char(',')))
                     .arg(t.begin)
                     .arg(t.end);
    }
    if (h.metadata) {
        for (const auto& [key, value] : h.metadata->entries())
            lines << QStringLiteral("meta %1=%2").arg(key, value);
    } else {
        lines << QStringLiteral("no metadata");
    }
    for (const ts::Diagnostic& d : h.warnings)
        lines << QStringLiteral("warning %1 %2 [%3]").arg(d.code, d.message, d.tensor);
    return lines.join(QLatin1Char('\n'));
}

struct Verdict {
    bool scanned = false; // the scanner gave a result
    QString scanner;      // what it gave
    QString dom;          // what the DOM reader gives (or its error)
};

// `json` is the header text alone (no length prefix).
Verdict compare(const QByteArray& json)
{
    QByteArray padded = json;
    padded.append(QByteArray(simdjson::SIMDJSON_PADDING, ' '));
    const auto size = static_cast<std::size_t>(json.size());
    Verdict v;
    auto dom = ts::readHeaderSchemaWithDom(padded.constData(), size, static_cast<std::size_t>(padded.size()),
                                           QStringLiteral("x.safetensors"));
    v.dom = dom ? describe(*dom) : QStringLiteral("error: ") + dom.error().message;
    auto scan = ts::HeaderScanner::scan(std::string_view(json.constData(), size), 20);
    v.scanned = scan.has_value();
    if (scan) {
        auto header = ts::readHeaderSchema(padded.constData(), size, static_cast<std::size_t>(padded.size()),
                                           QStringLiteral("x.safetensors"));
        v.scanner = header ? describe(*header) : QStringLiteral("error: ") + header.error().message;
    }
    return v;
}

QByteArray headerText(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray prefix = f.read(8);
    if (prefix.size() < 8)
        return {};
    quint64 n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(prefix[i]);
    if (n > 100'000'000 || n > static_cast<quint64>(f.size()) - 8)
        return {};
    return f.read(static_cast<qint64>(n));
}

QByteArray entry(const QByteArray& name, const QByteArray& body)
{
    return "\"" + name + "\":" + body;
}

const QByteArray kF32 = R"({"dtype":"F32","shape":[1],"data_offsets":[0,4]})";

} // namespace

class TestHeaderScanner : public QObject {
    Q_OBJECT

private slots:
    // Every file the tests know: what the scanner reads, it reads as the DOM does.
    void sameAsTheDomOnEveryFixture();
    void crafted_data();
    void crafted();
};

void TestHeaderScanner::sameAsTheDomOnEveryFixture()
{
    TS_REQUIRE_SHARED_FIXTURES();
    QStringList files;
    for (const QString& root :
         QStringList{ts::test::conformanceDir(), ts::test::sharedDir() + QStringLiteral("/fixtures")}) {
        QDirIterator it(root, {QStringLiteral("*.safetensors")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    QVERIFY2(files.size() > 20, qPrintable(QString::number(files.size())));
    int scanned = 0;
    for (const QString& path : files) {
        const QByteArray json = headerText(path);
        // The parser rejects text that is not UTF-8 before either reader sees it.
        if (json.isEmpty() ||
            !simdjson::validate_utf8(json.constData(), static_cast<std::size_t>(json.size())))
            continue;
        const Verdict v = compare(json);
        if (!v.scanned)
            continue;
        ++scanned;
        QVERIFY2(v.scanner == v.dom, qPrintable(path + QStringLiteral("\nscanner:\n") + v.scanner +
                                                QStringLiteral("\nDOM:\n") + v.dom));
    }
    // Most files are plain: a scanner that declined everything would pass the loop above.
    QVERIFY2(scanned * 3 > files.size(),
             qPrintable(QStringLiteral("%1 of %2").arg(scanned).arg(files.size())));
}

void TestHeaderScanner::crafted_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("scanned"); // whether the scanner must take it
    QTest::newRow("empty object") << QByteArray("{}") << true;
    QTest::newRow("metadata only") << QByteArray(R"({"__metadata__":{}})") << true;
    QTest::newRow("metadata escapes")
        << QByteArray(R"({"__metadata__":{"k\n":"a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\u0041"},)" +
                      entry("a", kF32) + "}")
        << true;
    QTest::newRow("whitespace everywhere")
        << QByteArray(
               " {\n\t\"a\" : { \"shape\" : [ 1 ] , \"dtype\" : \"F32\" , \"data_offsets\" : [ 0 , 4 ] "
               "} \r\n}\n\t ")
        << true;
    QTest::newRow("non-ASCII names") << QByteArray("{" + entry("\xc3\xa9.w", kF32) + "," +
                                                   entry("\xe4\xb8\xad\xf0\x9f\x98\x80", kF32) + "}")
                                     << true;
    QTest::newRow("empty name and shape")
        << QByteArray(R"({"":{"dtype":"F32","shape":[],"data_offsets":[0,4]}})") << true;
    QByteArray arrays = "{";
    for (int i = 0; i < 25; ++i)
        arrays += (i ? "," : "") + entry("t" + QByteArray::number(i), R"(["U8",[0],[0,0]])");
    QTest::newRow("25 array forms (20 listed, then a summary)") << arrays + "}" << true;
    QTest::newRow("u64 max") << QByteArray(R"({"a":{"dtype":"U8","shape":[18446744073709551615],)"
                                           R"("data_offsets":[0,18446744073709551615]}})")
                             << true;

    // Everything else is the DOM reader's: leniencies with warnings, and errors.
    QTest::newRow("duplicate name") << QByteArray("{" + entry("a", kF32) + "," + entry("a", kF32) + "}")
                                    << false;
    QTest::newRow("escape in a name") << QByteArray("{" + entry("a\\u0041", kF32) + "}") << false;
    QTest::newRow("extra field") << QByteArray(
                                        R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":0}})")
                                 << false;
    QTest::newRow("dtype map form") << QByteArray(
                                           R"({"a":{"dtype":{"F32":null},"shape":[1],"data_offsets":[0,4]}})")
                                    << false;
    QTest::newRow("unknown dtype") << QByteArray(R"({"a":{"dtype":"f32","shape":[1],"data_offsets":[0,4]}})")
                                   << false;
    QTest::newRow("field twice")
        << QByteArray(R"({"a":{"dtype":"F32","dtype":"F32","shape":[1],"data_offsets":[0,4]}})") << false;
    QTest::newRow("missing field") << QByteArray(R"({"a":{"dtype":"F32","shape":[1]}})") << false;
    QTest::newRow("negative zero") << QByteArray(R"({"a":{"dtype":"F32","shape":[-0],"data_offsets":[0,4]}})")
                                   << false;
    QTest::newRow("float") << QByteArray(R"({"a":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}})")
                           << false;
    QTest::newRow("exponent") << QByteArray(R"({"a":{"dtype":"F32","shape":[1e0],"data_offsets":[0,4]}})")
                              << false;
    QTest::newRow("leading zero") << QByteArray(R"({"a":{"dtype":"F32","shape":[01],"data_offsets":[0,4]}})")
                                  << false;
    QTest::newRow("2^64") << QByteArray(R"({"a":{"dtype":"U8","shape":[1],)"
                                        R"("data_offsets":[0,18446744073709551616]}})")
                          << false;
    QTest::newRow("metadata null") << QByteArray(R"({"__metadata__":null})") << false;
    QTest::newRow("metadata twice") << QByteArray(R"({"__metadata__":{},"__metadata__":{}})") << false;
    QTest::newRow("metadata number") << QByteArray(R"({"__metadata__":{"k":1}})") << false;
    QTest::newRow("metadata key twice") << QByteArray(R"({"__metadata__":{"k":"a","k":"b"}})") << false;
    QTest::newRow("metadata surrogate pair")
        << QByteArray(R"({"__metadata__":{"k":"\ud83d\ude00"}})") << false;
    QTest::newRow("metadata NUL escape") << QByteArray(R"({"__metadata__":{"k":"\u0000"}})") << false;
    QTest::newRow("raw control character") << QByteArray("{\"__metadata__\":{\"k\":\"a\x01\"}}") << false;
    QTest::newRow("trailing comma") << QByteArray("{" + entry("a", kF32) + ",}") << false;
    QTest::newRow("trailing text") << QByteArray("{} x") << false;
    QTest::newRow("not an object") << QByteArray("[]") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("array form of 2") << QByteArray(R"({"a":["U8",[0]]})") << false;
}

void TestHeaderScanner::crafted()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, scanned);
    const Verdict v = compare(json);
    QVERIFY2(v.scanned == scanned,
             qPrintable(QStringLiteral("scanned: %1\nDOM:\n%2").arg(v.scanned).arg(v.dom)));
    if (v.scanned)
        QVERIFY2(v.scanner == v.dom,
                 qPrintable(QStringLiteral("scanner:\n") + v.scanner + QStringLiteral("\nDOM:\n") + v.dom));
}

QTEST_GUILESS_MAIN(TestHeaderScanner)
#include "tst_header_scanner.moc"
