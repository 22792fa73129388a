// Every public conformance file against the reference's verdict in expected.jsonl: accept or
// reject, error category, tensor list, metadata, and the warnings a lenient case deserves.
#include "HeaderParser.h"
#include "MappedFile.h"
#include "SafetensorsFile.h"
#include "TestPaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

namespace {

struct Case {
    QJsonObject expected;
    QString id() const { return expected.value(QStringLiteral("id")).toString(); }
    QString path() const { return tspaths::conformanceDir() + QStringLiteral("/cases/") + expected.value(QStringLiteral("file")).toString(); }
};

QList<Case> loadCases()
{
    QList<Case> cases;
    QFile f(tspaths::conformanceDir() + QStringLiteral("/expected.jsonl"));
    if (!f.open(QIODevice::ReadOnly))
        return cases;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (!line.isEmpty())
            cases.append(Case{QJsonDocument::fromJson(line).object()});
    }
    return cases;
}

// Shapes may hold 2^62 or u64::MAX: JSON numbers beyond 2^53 arrive as doubles.
bool sameNumber(const QJsonValue& v, std::uint64_t ours)
{
    const QVariant var = v.toVariant();
    if (var.typeId() == QMetaType::LongLong)
        return var.toLongLong() >= 0 && static_cast<std::uint64_t>(var.toLongLong()) == ours;
    return v.toDouble() == static_cast<double>(ours);
}

QString describe(const std::vector<ts::Diagnostic>& warnings)
{
    QStringList codes;
    for (const auto& w : warnings)
        codes << w.code;
    return codes.join(QLatin1Char(','));
}

// Which warning each flagged public case must carry. Hidden cases are covered by the general
// rules in verdicts(): every flagged valid case warns, every writer-made case is silent.
const QHash<QString, QString>& expectedWarningById()
{
    static const QHash<QString, QString> map = {
        {QStringLiteral("v_raw_dtype_as_enum_map"), QStringLiteral("DtypeEnumMapForm")},
        {QStringLiteral("v_raw_dup_escaped_name"), QStringLiteral("DuplicateTensorName")},
        {QStringLiteral("v_raw_dup_tensor_identical"), QStringLiteral("DuplicateTensorName")},
        {QStringLiteral("v_raw_extra_tensor_field"), QStringLiteral("ExtraTensorField")},
        {QStringLiteral("v_raw_leading_ws"), QStringLiteral("LeadingWhitespace")},
        {QStringLiteral("v_raw_tensor_as_array"), QStringLiteral("TensorEntryArrayForm")},
        {QStringLiteral("v_raw_unaligned_offsets"), QStringLiteral("UnalignedOffset")},
        {QStringLiteral("v_raw_unpadded"), QStringLiteral("HeaderNotPadded")},
        {QStringLiteral("v_raw_header_order_differs"), QString()},
    };
    return map;
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdicts_data()
    {
        QTest::addColumn<QJsonObject>("expected");
        const QList<Case> cases = loadCases();
        QVERIFY2(cases.size() >= 106, "expected.jsonl is missing or short in tests/data/conformance");
        for (const Case& c : cases)
            QTest::newRow(qPrintable(c.id())) << c.expected;
    }

    void verdicts()
    {
        QFETCH(QJsonObject, expected);
        const Case c{expected};
        auto file = ts::SafetensorsFile::open(c.path());
        const bool shouldAccept = expected.value(QStringLiteral("ok")).toBool();
        if (!shouldAccept) {
            QVERIFY2(!file, qPrintable(QStringLiteral("accepted a file the reference rejects with %1")
                                           .arg(expected.value(QStringLiteral("error")).toString())));
            QCOMPARE(ts::errorCodeName(file.error().code), expected.value(QStringLiteral("error")).toString());
            // The sentence names the file; layout errors name the tensor.
            QCOMPARE(file.error().file, c.path());
            QVERIFY(!file.error().message.isEmpty());
            if (file.error().code == ts::ErrorCode::InvalidOffset || file.error().code == ts::ErrorCode::TensorInvalidInfo)
                QVERIFY2(!file.error().tensor.isNull(), qPrintable(file.error().toString()));
            return;
        }
        QVERIFY2(file, qPrintable(file ? QString() : file.error().toString()));
        const ts::Header& header = (*file)->header();

        const QJsonArray tensors = expected.value(QStringLiteral("tensors")).toArray();
        QCOMPARE(header.tensors.size(), std::size_t(tensors.size()));
        for (qsizetype i = 0; i < tensors.size(); ++i) {
            const QJsonObject want = tensors[i].toObject();
            const ts::TensorInfo& got = header.tensors[static_cast<std::size_t>(i)];
            QCOMPARE(got.name, want.value(QStringLiteral("name")).toString());
            QCOMPARE(ts::dtypeName(got.dtype), want.value(QStringLiteral("dtype")).toString());
            const QJsonArray shape = want.value(QStringLiteral("shape")).toArray();
            QCOMPARE(got.shape.size(), std::size_t(shape.size()));
            for (qsizetype d = 0; d < shape.size(); ++d)
                QVERIFY(sameNumber(shape[d], got.shape[static_cast<std::size_t>(d)]));
            const QJsonArray offsets = want.value(QStringLiteral("data_offsets")).toArray();
            QVERIFY(sameNumber(offsets[0], got.begin));
            QVERIFY(sameNumber(offsets[1], got.end));
        }

        const QJsonValue metadata = expected.value(QStringLiteral("metadata"));
        if (metadata.isNull()) {
            QVERIFY(!header.metadata.has_value());
        } else {
            QVERIFY(header.metadata.has_value());
            const QJsonObject want = metadata.toObject();
            QCOMPARE(header.metadata->size(), int(want.size()));
            for (auto it = want.begin(); it != want.end(); ++it)
                QCOMPARE(header.metadata->value(it.key()), std::optional<QString>(it.value().toString()));
        }

        const bool flagged = expected.contains(QStringLiteral("flags"));
        const QString madeBy = expected.value(QStringLiteral("made_by")).toString();
        if (flagged)
            QVERIFY2(!header.warnings.empty(), "a case where the reference is more lenient than the spec must warn");
        if (madeBy == QLatin1String("reference-writer")) {
            // Writer-made files have no parser differential and no layout oddity; names with
            // control characters are worth a warning whoever wrote them.
            std::vector<ts::Diagnostic> structural;
            for (const auto& w : header.warnings) {
                if (w.code != QLatin1String("ControlCharacterInName"))
                    structural.push_back(w);
            }
            QVERIFY2(structural.empty(), qPrintable(QStringLiteral("writer-made file warned: ") + describe(structural)));
        }
        const auto wanted = expectedWarningById().constFind(c.id());
        if (wanted != expectedWarningById().constEnd() && !wanted->isEmpty()) {
            bool found = false;
            for (const auto& w : header.warnings)
                found = found || w.code == *wanted;
            QVERIFY2(found, qPrintable(QStringLiteral("missing %1, got %2").arg(*wanted, describe(header.warnings))));
        }
    }

    void errorsPointAtBytes()
    {
        // Layout errors carry the absolute byte offset of the offending tensor.
        auto overlap = ts::SafetensorsFile::open(tspaths::conformanceDir() + QStringLiteral("/cases/i_offsets_overlap.safetensors"));
        QVERIFY(!overlap);
        QCOMPARE(overlap.error().tensor, QStringLiteral("b"));
        QVERIFY(overlap.error().offset.has_value());
        QVERIFY(overlap.error().toString().contains(QStringLiteral("i_offsets_overlap.safetensors")));
        // A bad UTF-8 byte is located exactly.
        auto utf8 = ts::SafetensorsFile::open(tspaths::conformanceDir() + QStringLiteral("/cases/i_utf8_in_name.safetensors"));
        QVERIFY(!utf8);
        QVERIFY(utf8.error().offset.has_value());
        QFile raw(tspaths::conformanceDir() + QStringLiteral("/cases/i_utf8_in_name.safetensors"));
        QVERIFY(raw.open(QIODevice::ReadOnly));
        const QByteArray bytes = raw.readAll();
        QCOMPARE(static_cast<unsigned char>(bytes[static_cast<qsizetype>(*utf8.error().offset)]), 0xfe);
    }

    void rulesBeyondThePublicCorpus()
    {
        // SPEC-NOTES rules with no public file: build the bytes here.
        auto parse = [](const QByteArray& json, const QByteArray& data = {}) {
            QByteArray file(8, '\0');
            const auto n = static_cast<std::uint64_t>(json.size());
            for (int i = 0; i < 8; ++i)
                file[i] = static_cast<char>((n >> (8 * i)) & 0xff);
            file += json + data;
            return ts::parseHeaderBytes(file.constData(), static_cast<std::size_t>(file.size()),
                                        static_cast<std::uint64_t>(file.size()), QStringLiteral("mem"));
        };
        // Product checked left to right: a leading zero short-circuits, a late one does not.
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[0,4611686018427387904,4611686018427387904],"data_offsets":[0,0]}})"));
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[0,18446744073709551615],"data_offsets":[0,0]}})"));
        auto late = parse(R"({"a":{"dtype":"U8","shape":[1099511627776,1099511627776,0],"data_offsets":[0,0]}})");
        QVERIFY(!late);
        QCOMPARE(late.error().code, ts::ErrorCode::ValidationOverflow);
        // Offsets whose sum wraps 2^64 are incomplete, not a crash.
        QByteArray eight = "{";
        const std::uint64_t chunk = (1ULL << 61) - 1; // largest U8 tensor whose bit count fits u64
        for (int i = 0; i < 8; ++i) {
            eight += (i ? "," : "") + QByteArray("\"t") + QByteArray::number(i) + "\":{\"dtype\":\"U8\",\"shape\":[" +
                     QByteArray::number(static_cast<qulonglong>(chunk)) + "],\"data_offsets\":[" +
                     QByteArray::number(static_cast<qulonglong>(chunk * i)) + "," +
                     QByteArray::number(static_cast<qulonglong>(chunk * (i + 1))) + "]}";
        }
        auto wrap = parse(eight + "}");
        QVERIFY(!wrap);
        QCOMPARE(wrap.error().code, ts::ErrorCode::MetadataIncompleteBuffer);
        // serde reads -0 as a float: rejected in a shape, accepted in an ignored field.
        auto negZero = parse(R"({"a":{"dtype":"U8","shape":[-0],"data_offsets":[0,0]}})");
        QVERIFY(!negZero);
        QCOMPARE(negZero.error().code, ts::ErrorCode::InvalidHeaderDeserialization);
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":-0}})", "A"));
        // Integers beyond u64 are floats to serde: fine in an ignored field, not as a size.
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":99999999999999999999999}})", "A"));
        QVERIFY(!parse(R"({"a":{"dtype":"U8","shape":[99999999999999999999999],"data_offsets":[0,1]}})", "A"));
        // serde_json's nesting limit: 127 levels pass, 128 fail.
        auto nested = [&](int depth) {
            QByteArray v = QByteArray(depth - 2, '[') + QByteArray(depth - 2, ']');
            return parse(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)" + v + "}}", "A");
        };
        QVERIFY(nested(127));
        QVERIFY(!nested(128));
        // Duplicate __metadata__ is an error; metadata null is "none" with a warning.
        QVERIFY(!parse(R"({"__metadata__":{},"__metadata__":{}})"));
        auto metaNull = parse(R"({"__metadata__":null})");
        QVERIFY(metaNull);
        QVERIFY(!metaNull->metadata.has_value());
        QCOMPARE(metaNull->warnings.front().code, QStringLiteral("MetadataNull"));
        // Four-element array form and duplicate fields are errors.
        QVERIFY(!parse(R"({"a":["U8",[1],[0,1],1]})", "A"));
        QVERIFY(!parse(R"({"a":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "A"));
        // Two identical non-empty ranges: deterministic, the first in header order is reported.
        auto tie = parse(R"({"p":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"q":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "A");
        QVERIFY(!tie);
        QCOMPARE(tie.error().code, ts::ErrorCode::InvalidOffset);
        QCOMPARE(tie.error().tensor, QStringLiteral("q"));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
