// The one parser of the convert options (core/convert/ConvertOptionsParser.h), which both
// `tensorscope-cli convert` and the Convert dialog use: where each kind of option splits at '=',
// what is trimmed, how dtypes are spelt, and that a bad option is named in the error.
#include "convert/ConvertOptionsParser.h"
#include "convert/DtypeConverter.h"

#include <QTest>

using namespace ts;

namespace {

ConvertOptions parsed(const ConvertOptionTexts& texts)
{
    const Result<ConvertOptions> r = parseConvertOptions(texts);
    if (!r)
        qWarning("%s", qPrintable(r.error().toString()));
    return r ? r.value() : ConvertOptions{};
}

// The error sentence for `texts`; empty when they parse.
QString errorOf(const ConvertOptionTexts& texts)
{
    const Result<ConvertOptions> r = parseConvertOptions(texts);
    if (r)
        return {};
    return r.error().code == ErrorCode::InvalidArgument ? r.error().message : QStringLiteral("wrong code");
}

} // namespace

class TestConvertOptions : public QObject {
    Q_OBJECT
private slots:
    void nothingGivenIsTheDefault() { QVERIFY(parsed({}) == ConvertOptions{}); }

    void dtypeNamesInAnyCase_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("dtype");
        QTest::newRow("upper") << QStringLiteral("F16") << int(Dtype::F16);
        QTest::newRow("lower") << QStringLiteral("bf16") << int(Dtype::BF16);
        QTest::newRow("mixed, spaced") << QStringLiteral(" f8_E4m3 ") << int(Dtype::F8_E4M3);
    }
    void dtypeNamesInAnyCase()
    {
        QFETCH(QString, text);
        QFETCH(int, dtype);
        ConvertOptionTexts texts;
        texts.dtype = text;
        QCOMPARE(parsed(texts).dtype, std::optional<Dtype>(static_cast<Dtype>(dtype)));
    }

    void badDtypeIsNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << QStringLiteral("F12");
        QTest::newRow("not convertible") << QStringLiteral("I32");
        QTest::newRow("empty") << QString();
    }
    void badDtypeIsNamed()
    {
        QFETCH(QString, text);
        ConvertOptionTexts texts;
        texts.dtype = text;
        QCOMPARE(errorOf(texts),
                 QStringLiteral("--dtype must be one of F32, F16, BF16, F64, F8_E4M3, F8_E5M2; "
                                "got \"%1\"")
                     .arg(text));
    }

    // A dtype has no '=', a glob (and a tensor name) may: GLOB=D splits at the last one.
    void dtypeForSplitsAtTheLastEquals()
    {
        ConvertOptionTexts texts;
        texts.dtypeFor = {QStringLiteral("lora.alpha=2.*=f16"), QStringLiteral("  *.bias = F32 "),
                          QStringLiteral("*=bf16")};
        const ConvertOptions o = parsed(texts);
        const std::vector<std::pair<QString, Dtype>> expected = {
            {QStringLiteral("lora.alpha=2.*"), Dtype::F16},
            {QStringLiteral("*.bias"), Dtype::F32},
            {QStringLiteral("*"), Dtype::BF16}};
        QVERIFY(o.dtypeFor == expected);
    }

    void badDtypeForIsNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no equals") << QStringLiteral("*.bias");
        QTest::newRow("no glob") << QStringLiteral(" =F16");
        QTest::newRow("bad dtype") << QStringLiteral("*.bias=F12");
        QTest::newRow("dtype before the last equals") << QStringLiteral("*.bias=F16=");
    }
    void badDtypeForIsNamed()
    {
        QFETCH(QString, text);
        ConvertOptionTexts texts;
        texts.dtypeFor = {QStringLiteral("*=F16"), text};
        QCOMPARE(errorOf(texts),
                 QStringLiteral("--dtype-for expects GLOB=D with D one of F32, F16, BF16, F64, "
                                "F8_E4M3, F8_E5M2; got \"%1\"")
                     .arg(text));
    }

    // A regex can write '=' as \x3D, a replacement cannot: REGEX=REPLACEMENT splits at the first.
    void renameSplitsAtTheFirstEquals()
    {
        ConvertOptionTexts texts;
        texts.rename = {QStringLiteral("^model\\.=m=1."), QStringLiteral("a\\x3Db=c"),
                        QStringLiteral(" x = y ")};
        const std::vector<std::pair<QString, QString>> expected = {
            {QStringLiteral("^model\\."), QStringLiteral("m=1.")},
            {QStringLiteral("a\\x3Db"), QStringLiteral("c")},
            {QStringLiteral(" x "), QStringLiteral(" y ")}, // spaces in a regex and a replacement count
        };
        QVERIFY(parsed(texts).rename == expected);
    }

    void badRenameIsNamed()
    {
        ConvertOptionTexts texts;
        texts.rename = {QStringLiteral("no equals")};
        QCOMPARE(errorOf(texts), QStringLiteral("--rename expects REGEX=REPLACEMENT, got \"no equals\""));
        texts.rename = {QStringLiteral("=x")};
        QCOMPARE(errorOf(texts), QStringLiteral("--rename expects REGEX=REPLACEMENT, got \"=x\""));
        texts.rename = {QStringLiteral("(=x")};
        const QString invalid = errorOf(texts);
        QVERIFY2(invalid.startsWith(QStringLiteral("--rename \"(=x\": the regular expression is invalid at "
                                                   "character 1: ")),
                 qPrintable(invalid));
    }

    // As `meta --set`: values hold '=' (base64, URLs) more often than keys. The key is trimmed,
    // the value kept as typed.
    void setSplitsAtTheFirstEquals()
    {
        ConvertOptionTexts texts;
        texts.set = {QStringLiteral("sig=YWJj=="), QStringLiteral(" format = pt "), QStringLiteral("empty=")};
        const std::vector<std::pair<QString, QString>> expected = {
            {QStringLiteral("sig"), QStringLiteral("YWJj==")},
            {QStringLiteral("format"), QStringLiteral(" pt ")},
            {QStringLiteral("empty"), QString()},
        };
        QVERIFY(parsed(texts).setMetadata == expected);
        texts.unset = {QStringLiteral(" license ")};
        QCOMPARE(parsed(texts).unsetMetadata, QStringList{QStringLiteral("license")});
    }

    void badSetAndUnsetAreNamed()
    {
        ConvertOptionTexts texts;
        texts.set = {QStringLiteral("no equals sign")};
        QCOMPARE(errorOf(texts), QStringLiteral("--set expects KEY=VALUE, got \"no equals sign\""));
        texts.set = {QStringLiteral(" =v")};
        QCOMPARE(errorOf(texts), QStringLiteral("--set expects KEY=VALUE, got \" =v\""));
        texts.set.clear();
        texts.unset = {QStringLiteral(" ")};
        QCOMPARE(errorOf(texts), QStringLiteral("--unset expects a KEY, got \" \""));
    }

    void globsAreTakenAsGiven()
    {
        ConvertOptionTexts texts;
        texts.include = {QStringLiteral("model.layers.*"), QStringLiteral("a=b")};
        texts.exclude = {QStringLiteral("*.bias")};
        const ConvertOptions o = parsed(texts);
        QCOMPARE(o.include, texts.include);
        QCOMPARE(o.exclude, texts.exclude);
    }

    void shardSize()
    {
        ConvertOptionTexts texts;
        texts.shardSize = QStringLiteral("2GB");
        QCOMPARE(parsed(texts).shardSize, std::optional<std::uint64_t>(2'000'000'000));
        texts.shardSize = QStringLiteral("1GiB");
        QCOMPARE(parsed(texts).shardSize, std::optional<std::uint64_t>(1ull << 30));
        for (const QString& bad : {QStringLiteral("lots"), QString()}) {
            texts.shardSize = bad;
            QCOMPARE(errorOf(texts),
                     QStringLiteral("--shard-size expects a size such as 500MB, 2GB or 1GiB; got \"%1\"")
                         .arg(bad));
        }
    }

    // The first bad option is the one reported, whatever comes after it.
    void firstBadOptionIsReported()
    {
        ConvertOptionTexts texts;
        texts.dtype = QStringLiteral("F16");
        texts.dtypeFor = {QStringLiteral("x")};
        texts.set = {QStringLiteral("y")};
        QVERIFY(errorOf(texts).startsWith(QStringLiteral("--dtype-for")));
    }

    // One list: what the parser accepts, what DtypeConverter converts, what the names say.
    void targetsAreTheConvertersDtypes()
    {
        QStringList names;
        for (const Dtype d : DtypeConverter::targets())
            names << dtypeName(d);
        QCOMPARE(convertDtypeNames(), names);
        QCOMPARE(names,
                 (QStringList{QStringLiteral("F32"), QStringLiteral("F16"), QStringLiteral("BF16"),
                              QStringLiteral("F64"), QStringLiteral("F8_E4M3"), QStringLiteral("F8_E5M2")}));
        for (const Dtype d : allDtypes()) {
            ConvertOptionTexts texts;
            texts.dtype = dtypeName(d);
            QCOMPARE(parseConvertOptions(texts).ok(), DtypeConverter::supports(d));
            QCOMPARE(names.contains(dtypeName(d)), DtypeConverter::supports(d));
        }
    }
};

QTEST_GUILESS_MAIN(TestConvertOptions)
#include "tst_convert_options.moc"
