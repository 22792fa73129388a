// Every public conformance file against the reference's verdict in expected.jsonl: accept or
// reject, error category, tensor list, metadata, and the warnings a lenient case deserves.
#include "Fixtures.h"
#include "format/HeaderParser.h"
#include "format/SafetensorsFile.h"
#include "io/MappedFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Case {
    QJsonObject expected;
    QString id() const { return expected.value(QStringLiteral("id")).toString(); }
    QString path() const
    {
        return ts::test::conformanceDir() + QStringLiteral("/cases/") +
               expected.value(QStringLiteral("file")).toString();
    }
};

QList<Case> loadCases()
{
    QList<Case> cases;
    QFile f(ts::test::conformanceDir() + QStringLiteral("/expected.jsonl"));
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

// One tensor entry of a hand-written header: "name":{"dtype":..,"shape":..,"data_offsets":[b,e]}.
QByteArray entry(const QByteArray& name, const QByteArray& dtype, const QByteArray& shape, int begin, int end)
{
    return '"' + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":[" +
           QByteArray::number(begin) + ',' + QByteArray::number(end) + "]}";
}

QByteArray object(const QList<QByteArray>& entries)
{
    return '{' + entries.join(',') + '}';
}

// A tensor as the expectations below spell it: name dtype shape [begin, end].
QString describe(const ts::TensorInfo& t)
{
    return QStringLiteral("%1 %2 %3 [%4, %5]")
        .arg(t.name, ts::dtypeName(t.dtype), t.shapeString())
        .arg(t.begin)
        .arg(t.end);
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
            QCOMPARE(ts::errorCodeName(file.error().code),
                     expected.value(QStringLiteral("error")).toString());
            // The sentence names the file; layout errors name the tensor.
            QCOMPARE(file.error().file, c.path());
            QVERIFY(!file.error().message.isEmpty());
            if (file.error().code == ts::ErrorCode::InvalidOffset ||
                file.error().code == ts::ErrorCode::TensorInvalidInfo)
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
            QVERIFY2(!header.warnings.empty(),
                     "a case where the reference is more lenient than the spec must warn");
        if (madeBy == QLatin1String("reference-writer")) {
            // Writer-made files have no parser differential and no layout oddity; names with
            // control characters are worth a warning whoever wrote them.
            std::vector<ts::Diagnostic> structural;
            for (const auto& w : header.warnings) {
                if (w.code != QLatin1String("ControlCharacterInName"))
                    structural.push_back(w);
            }
            QVERIFY2(structural.empty(),
                     qPrintable(QStringLiteral("writer-made file warned: ") + describe(structural)));
        }
        const auto wanted = expectedWarningById().constFind(c.id());
        if (wanted != expectedWarningById().constEnd() && !wanted->isEmpty()) {
            bool found = false;
            for (const auto& w : header.warnings)
                found = found || w.code == *wanted;
            QVERIFY2(
                found,
                qPrintable(QStringLiteral("missing %1, got %2").arg(*wanted, describe(header.warnings))));
        }
    }

    // A name declared more than once: the reference deserializes into a HashMap, so the last
    // declaration wins and the earlier ones vanish before the layout is checked. Duplicates in
    // every position, written as real files and opened as a user would: the surviving entries
    // must be exactly the last declarations (an entry before the first duplicate once lost its
    // shape: a self-move emptied it), and the layout verdict must be the one those give.
    void duplicateNamesLastDeclarationWins_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<QStringList>("survivors"); // in data order; empty when rejected
        QTest::addColumn<QString>("error");         // error code name when rejected
        QTest::addColumn<QString>("errorTensor");
        QTest::addColumn<QStringList>("duplicates"); // "name xN" for each duplicated name

        QTest::newRow("last entry duplicated (the reported file)")
            << object({entry("a", "F32", "[2]", 0, 8), entry("b", "U8", "[2]", 8, 10),
                       entry("b", "U8", "[4]", 8, 12)})
            << 12 << QStringList{QStringLiteral("a F32 [2] [0, 8]"), QStringLiteral("b U8 [4] [8, 12]")}
            << QString() << QString() << QStringList{QStringLiteral("b x2")};
        QTest::newRow("first entry duplicated, first declaration invalid")
            << object({entry("a", "U8", "[3]", 0, 3), entry("a", "F32", "[2]", 0, 8),
                       entry("b", "I16", "[2,2]", 8, 16)})
            << 16 << QStringList{QStringLiteral("a F32 [2] [0, 8]"), QStringLiteral("b I16 [2, 2] [8, 16]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2")};
        QTest::newRow("middle entry duplicated, adjacent")
            << object({entry("a", "F32", "[2]", 0, 8), entry("b", "U8", "[1]", 8, 9),
                       entry("b", "U8", "[2,4]", 8, 16), entry("c", "I32", "[2]", 16, 24)})
            << 24
            << QStringList{QStringLiteral("a F32 [2] [0, 8]"), QStringLiteral("b U8 [2, 4] [8, 16]"),
                           QStringLiteral("c I32 [2] [16, 24]")}
            << QString() << QString() << QStringList{QStringLiteral("b x2")};
        QTest::newRow("duplicates apart, survivors before and between")
            << object({entry("x", "U8", "[4]", 0, 4), entry("a", "U8", "[1]", 4, 5),
                       entry("y", "F32", "[2,1]", 8, 16), entry("a", "U8", "[2,2]", 4, 8)})
            << 16
            << QStringList{QStringLiteral("x U8 [4] [0, 4]"), QStringLiteral("a U8 [2, 2] [4, 8]"),
                           QStringLiteral("y F32 [2, 1] [8, 16]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2")};
        QTest::newRow("two names duplicated, interleaved")
            << object({entry("a", "U8", "[1]", 0, 1), entry("b", "U8", "[1]", 1, 2),
                       entry("a", "F32", "[1,2]", 0, 8), entry("b", "I64", "[1]", 8, 16)})
            << 16 << QStringList{QStringLiteral("a F32 [1, 2] [0, 8]"), QStringLiteral("b I64 [1] [8, 16]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2"), QStringLiteral("b x2")};
        QTest::newRow("two names duplicated after a survivor")
            << object({entry("z", "U16", "[2]", 0, 4), entry("a", "U8", "[1]", 4, 5),
                       entry("b", "U8", "[1]", 5, 6), entry("a", "U8", "[2,2]", 4, 8),
                       entry("b", "F64", "[1,1]", 8, 16)})
            << 16
            << QStringList{QStringLiteral("z U16 [2] [0, 4]"), QStringLiteral("a U8 [2, 2] [4, 8]"),
                           QStringLiteral("b F64 [1, 1] [8, 16]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2"), QStringLiteral("b x2")};
        QTest::newRow("three declarations in a row")
            << object({entry("x", "BF16", "[2]", 0, 4), entry("a", "U8", "[1]", 4, 5),
                       entry("a", "U8", "[9]", 4, 13), entry("a", "I32", "[1,1]", 4, 8)})
            << 8 << QStringList{QStringLiteral("x BF16 [2] [0, 4]"), QStringLiteral("a I32 [1, 1] [4, 8]")}
            << QString() << QString() << QStringList{QStringLiteral("a x3")};
        QTest::newRow("three declarations apart")
            << object({entry("a", "U8", "[1]", 0, 1), entry("x", "U8", "[2,2]", 0, 4),
                       entry("a", "U8", "[3]", 4, 7), entry("y", "F32", "[1]", 8, 12),
                       entry("a", "U16", "[2]", 4, 8)})
            << 12
            << QStringList{QStringLiteral("x U8 [2, 2] [0, 4]"), QStringLiteral("a U16 [2] [4, 8]"),
                           QStringLiteral("y F32 [1] [8, 12]")}
            << QString() << QString() << QStringList{QStringLiteral("a x3")};
        QTest::newRow("the only tensor, twice")
            << object({entry("a", "U8", "[1]", 0, 1), entry("a", "F32", "[3]", 0, 12)}) << 12
            << QStringList{QStringLiteral("a F32 [3] [0, 12]")} << QString() << QString()
            << QStringList{QStringLiteral("a x2")};
        QTest::newRow("identical declarations after a survivor")
            << object({entry("s", "F32", "[2]", 0, 8), entry("w", "U8", "[4]", 8, 12),
                       entry("w", "U8", "[4]", 8, 12)})
            << 12 << QStringList{QStringLiteral("s F32 [2] [0, 8]"), QStringLiteral("w U8 [4] [8, 12]")}
            << QString() << QString() << QStringList{QStringLiteral("w x2")};
        QTest::newRow("__metadata__ between the declarations")
            << object({entry("s", "I8", "[2,2]", 0, 4), entry("a", "U8", "[1]", 4, 5),
                       QByteArray(R"("__metadata__":{"k":"v"})"), entry("a", "F32", "[1]", 4, 8)})
            << 8 << QStringList{QStringLiteral("s I8 [2, 2] [0, 4]"), QStringLiteral("a F32 [1] [4, 8]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2")};
        QTest::newRow("same name once escaped, after a survivor")
            << object({entry("s", "F32", "[2]", 0, 8), entry("a", "U8", "[1]", 8, 9),
                       entry("\\u0061", "U8", "[4]", 8, 12)})
            << 12 << QStringList{QStringLiteral("s F32 [2] [0, 8]"), QStringLiteral("a U8 [4] [8, 12]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2")};
        QTest::newRow("last declaration in array form")
            << object({entry("s", "U8", "[2,4]", 0, 8), entry("a", "U8", "[1]", 8, 9),
                       QByteArray(R"("a":["F32",[2],[8,16]])")})
            << 16 << QStringList{QStringLiteral("s U8 [2, 4] [0, 8]"), QStringLiteral("a F32 [2] [8, 16]")}
            << QString() << QString() << QStringList{QStringLiteral("a x2")};

        // Invalid under last-wins (and valid had the first declaration won, or had an earlier
        // entry lost its shape).
        QTest::newRow("entry before the duplicate too small for its shape")
            << object({entry("a", "F32", "[2]", 0, 4), entry("b", "U8", "[2]", 4, 6),
                       entry("b", "U8", "[4]", 4, 8)})
            << 8 << QStringList() << QStringLiteral("TensorInvalidInfo") << QStringLiteral("a")
            << QStringList();
        QTest::newRow("last declaration leaves a hole")
            << object({entry("a", "U8", "[4]", 0, 4), entry("b", "U8", "[4]", 4, 8),
                       entry("a", "U8", "[2]", 0, 2)})
            << 8 << QStringList() << QStringLiteral("InvalidOffset") << QStringLiteral("b") << QStringList();
        QTest::newRow("last declaration has the wrong size for its dtype")
            << object({entry("x", "U8", "[4]", 0, 4), entry("a", "U8", "[4]", 4, 8),
                       entry("a", "F32", "[4]", 4, 8)})
            << 8 << QStringList() << QStringLiteral("TensorInvalidInfo") << QStringLiteral("a")
            << QStringList();
        QTest::newRow("last declaration leaves data uncovered at the end")
            << object({entry("x", "U8", "[4]", 0, 4), entry("a", "U8", "[4]", 4, 8),
                       entry("a", "U8", "[2]", 4, 6)})
            << 8 << QStringList() << QStringLiteral("MetadataIncompleteBuffer") << QString() << QStringList();
        QTest::newRow("last declaration overlaps an earlier survivor")
            << object({entry("x", "U8", "[4]", 0, 4), entry("a", "U8", "[4]", 4, 8),
                       entry("a", "U8", "[4]", 2, 6)})
            << 8 << QStringList() << QStringLiteral("InvalidOffset") << QStringLiteral("a") << QStringList();
    }

    void duplicateNamesLastDeclarationWins()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, dataBytes);
        QFETCH(QStringList, survivors);
        QFETCH(QString, error);
        QFETCH(QString, errorTensor);
        QFETCH(QStringList, duplicates);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("dup.safetensors"));
        QByteArray bytes(8, '\0');
        for (int i = 0; i < 8; ++i)
            bytes[i] = static_cast<char>((static_cast<std::uint64_t>(json.size()) >> (8 * i)) & 0xff);
        bytes += json;
        for (int i = 0; i < dataBytes; ++i)
            bytes += static_cast<char>(i);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
        f.close();

        auto file = ts::SafetensorsFile::open(path);
        if (!error.isEmpty()) {
            QVERIFY2(!file, qPrintable(QStringLiteral("accepted: ") +
                                       (file ? describe((*file)->tensors().front()) : QString())));
            QCOMPARE(ts::errorCodeName(file.error().code), error);
            QCOMPARE(file.error().tensor, errorTensor);
            return;
        }
        QVERIFY2(file, qPrintable(file ? QString() : file.error().toString()));
        QStringList got;
        for (const ts::TensorInfo& t : (*file)->tensors())
            got << describe(t);
        QCOMPARE(got, survivors);
        // Reading a survivor gives the bytes of its last declaration's range (data byte i is i).
        for (const ts::TensorInfo& t : (*file)->tensors()) {
            const ts::TensorLocation at = (*file)->location(t);
            std::vector<std::byte> read(static_cast<std::size_t>(at.length));
            QVERIFY(at.source->read(at.offset, read));
            for (std::size_t i = 0; i < read.size(); ++i)
                QCOMPARE(static_cast<int>(read[i]), static_cast<int>(t.begin + i));
        }
        QStringList warned;
        for (const ts::Diagnostic& w : (*file)->header().warnings) {
            if (w.code != QLatin1String("DuplicateTensorName"))
                continue;
            const qsizetype times = w.message.indexOf(QLatin1String(" is declared "));
            QVERIFY(times > 0);
            warned << QStringLiteral("%1 x%2").arg(w.tensor, w.message.mid(times + 13, 1));
        }
        warned.sort();
        QCOMPARE(warned, duplicates);
    }

    void errorsPointAtBytes()
    {
        // Layout errors carry the absolute byte offset of the offending tensor.
        auto overlap = ts::SafetensorsFile::open(ts::test::conformanceDir() +
                                                 QStringLiteral("/cases/i_offsets_overlap.safetensors"));
        QVERIFY(!overlap);
        QCOMPARE(overlap.error().tensor, QStringLiteral("b"));
        QVERIFY(overlap.error().offset.has_value());
        QVERIFY(overlap.error().toString().contains(QStringLiteral("i_offsets_overlap.safetensors")));
        // A bad UTF-8 byte is located exactly.
        auto utf8 = ts::SafetensorsFile::open(ts::test::conformanceDir() +
                                              QStringLiteral("/cases/i_utf8_in_name.safetensors"));
        QVERIFY(!utf8);
        QVERIFY(utf8.error().offset.has_value());
        QFile raw(ts::test::conformanceDir() + QStringLiteral("/cases/i_utf8_in_name.safetensors"));
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
        QVERIFY(parse(
            R"({"a":{"dtype":"U8","shape":[0,4611686018427387904,4611686018427387904],"data_offsets":[0,0]}})"));
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[0,18446744073709551615],"data_offsets":[0,0]}})"));
        auto late =
            parse(R"({"a":{"dtype":"U8","shape":[1099511627776,1099511627776,0],"data_offsets":[0,0]}})");
        QVERIFY(!late);
        QCOMPARE(late.error().code, ts::ErrorCode::ValidationOverflow);
        // Offsets whose sum wraps 2^64 are incomplete, not a crash.
        QByteArray eight = "{";
        const std::uint64_t chunk = (1ULL << 61) - 1; // largest U8 tensor whose bit count fits u64
        for (int i = 0; i < 8; ++i) {
            eight += (i ? "," : "") + QByteArray("\"t") + QByteArray::number(i) +
                     "\":{\"dtype\":\"U8\",\"shape\":[" + QByteArray::number(static_cast<qulonglong>(chunk)) +
                     "],\"data_offsets\":[" + QByteArray::number(static_cast<qulonglong>(chunk * i)) + "," +
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
        QVERIFY(parse(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":99999999999999999999999}})",
                      "A"));
        QVERIFY(
            !parse(R"({"a":{"dtype":"U8","shape":[99999999999999999999999],"data_offsets":[0,1]}})", "A"));
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
        auto tie = parse(
            R"({"p":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"q":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})",
            "A");
        QVERIFY(!tie);
        QCOMPARE(tie.error().code, ts::ErrorCode::InvalidOffset);
        QCOMPARE(tie.error().tensor, QStringLiteral("q"));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
