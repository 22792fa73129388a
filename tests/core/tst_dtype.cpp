#include "format/Dtype.h"

#include <QTest>

class TestDtype : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip()
    {
        for (const ts::Dtype d : ts::allDtypes())
            QCOMPARE(ts::dtypeFromName(ts::dtypeName(d)), std::optional<ts::Dtype>(d));
        QVERIFY(!ts::dtypeFromName(QStringLiteral("f32")));
        QVERIFY(!ts::dtypeFromName(QStringLiteral("F8_E4M3FN")));
        QVERIFY(!ts::dtypeFromName(QStringLiteral("F32 ")));
    }
    void bitSizesMatchTheReferenceTable()
    {
        const std::pair<const char*, int> table[] = {
            {"BOOL", 8},        {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"U8", 8},
            {"I8", 8},          {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8},
            {"F8_E5M2FNUZ", 8}, {"I16", 16},    {"U16", 16},    {"F16", 16},    {"BF16", 16},
            {"I32", 32},        {"U32", 32},    {"F32", 32},    {"C64", 64},    {"F64", 64},
            {"I64", 64},        {"U64", 64}};
        QCOMPARE(std::size(table), std::size_t(ts::kDtypeCount));
        for (std::size_t i = 0; i < std::size(table); ++i) {
            const auto d = ts::dtypeFromName(std::string_view(table[i].first));
            QVERIFY(d);
            QCOMPARE(static_cast<std::size_t>(*d), i); // declaration order = writer order
            QCOMPARE(ts::dtypeBits(*d), table[i].second);
        }
    }
};

QTEST_GUILESS_MAIN(TestDtype)
#include "tst_dtype.moc"
