// Every dtype decoder against a table of known values, and the bulk decoder against the scalar one.
#include "codec/DtypeDecoder.h"

#include <QTest>

#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using ts::Dtype;
namespace decode = ts::decode;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Known {
    unsigned code;
    double value;
};

// Same value, NaN equal to NaN, and -0 distinct from +0.
bool sameValue(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

QString describe(Dtype d, unsigned code, double got, double want)
{
    return QStringLiteral("%1 code 0x%2: got %3, want %4")
        .arg(ts::dtypeName(d), QString::number(code, 16))
        .arg(got, 0, 'g', 17)
        .arg(want, 0, 'g', 17);
}

void checkByteTable(Dtype d, const std::vector<Known>& table)
{
    for (const Known& k : table) {
        const auto byte = static_cast<std::byte>(k.code);
        const double got = decode::element(d, std::span<const std::byte>(&byte, 1), 0);
        QVERIFY2(sameValue(got, k.value), qPrintable(describe(d, k.code, got, k.value)));
    }
}

} // namespace

class TestDtypeDecoding : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void f16KnownValues()
    {
        const std::vector<Known> table = {
            {0x0000, 0.0},     {0x8000, -0.0},           {0x3c00, 1.0},          {0xc000, -2.0},
            {0x7bff, 65504.0}, {0xfbff, -65504.0},       {0x0001, 0x1p-24},      {0x03ff, 1023 * 0x1p-24},
            {0x0400, 0x1p-14}, {0x7c00, kInf},           {0xfc00, -kInf},        {0x7e00, kNaN},
            {0x7c01, kNaN},    {0x3555, 0.333251953125}, {0x3bff, 0.99951171875}};
        for (const Known& k : table) {
            const double got = decode::f16(static_cast<std::uint16_t>(k.code));
            QVERIFY2(sameValue(got, k.value), qPrintable(describe(Dtype::F16, k.code, got, k.value)));
        }
    }
    void bf16KnownValues()
    {
        const std::vector<Known> table = {{0x0000, 0.0},
                                          {0x8000, -0.0},
                                          {0x3f80, 1.0},
                                          {0xc000, -2.0},
                                          {0x4049, 3.140625},
                                          {0x7f80, kInf},
                                          {0xff80, -kInf},
                                          {0x7fc0, kNaN},
                                          {0x0001, 0x1p-133},
                                          {0x0080, 0x1p-126},
                                          {0x7f7f, 3.3895313892515355e38}};
        for (const Known& k : table) {
            const double got = decode::bf16(static_cast<std::uint16_t>(k.code));
            QVERIFY2(sameValue(got, k.value), qPrintable(describe(Dtype::BF16, k.code, got, k.value)));
        }
    }
    void f8e4m3KnownValues()
    {
        // OCP FN: bias 7, no Inf, NaN only at S.1111.111, max 448.
        checkByteTable(Dtype::F8_E4M3, {{0x00, 0.0},
                                        {0x80, -0.0},
                                        {0x01, 0x1p-9},
                                        {0x07, 7 * 0x1p-9},
                                        {0x08, 0x1p-6},
                                        {0x38, 1.0},
                                        {0x40, 2.0},
                                        {0x78, 256.0},
                                        {0x7e, 448.0},
                                        {0xfe, -448.0},
                                        {0x7f, kNaN},
                                        {0xff, kNaN},
                                        {0x7c, 384.0}});
    }
    void f8e5m2KnownValues()
    {
        checkByteTable(Dtype::F8_E5M2, {{0x00, 0.0},
                                        {0x80, -0.0},
                                        {0x01, 0x1p-16},
                                        {0x04, 0x1p-14},
                                        {0x3c, 1.0},
                                        {0x7b, 57344.0},
                                        {0x7c, kInf},
                                        {0xfc, -kInf},
                                        {0x7d, kNaN},
                                        {0x7e, kNaN},
                                        {0x7f, kNaN},
                                        {0xff, kNaN},
                                        {0xc0, -2.0}});
    }
    void f8e8m0KnownValues()
    {
        checkByteTable(
            Dtype::F8_E8M0,
            {{0x7f, 1.0}, {0x80, 2.0}, {0x7e, 0.5}, {0x00, 0x1p-127}, {0xfe, 0x1p127}, {0xff, kNaN}});
    }
    void f8e4m3fnuzKnownValues()
    {
        // Bias 8, only 0x80 is NaN, no -0, no Inf, max 240.
        checkByteTable(Dtype::F8_E4M3FNUZ, {{0x00, 0.0},
                                            {0x80, kNaN},
                                            {0x01, 0x1p-10},
                                            {0x08, 0x1p-7},
                                            {0x40, 1.0},
                                            {0x7f, 240.0},
                                            {0xff, -240.0},
                                            {0x78, 128.0},
                                            {0xc0, -1.0}});
    }
    void f8e5m2fnuzKnownValues()
    {
        // Bias 16, only 0x80 is NaN, the all-ones exponent is an ordinary binade.
        checkByteTable(Dtype::F8_E5M2FNUZ, {{0x00, 0.0},
                                            {0x80, kNaN},
                                            {0x01, 0x1p-17},
                                            {0x04, 0x1p-15},
                                            {0x40, 1.0},
                                            {0x7c, 32768.0},
                                            {0x7f, 57344.0},
                                            {0xff, -57344.0}});
    }
    void f4KnownValuesAndNibbleOrder()
    {
        const double values[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
        for (unsigned c = 0; c < 16; ++c) {
            const double want = c < 8 ? values[c] : -values[c - 8];
            QVERIFY2(sameValue(decode::f4(static_cast<std::uint8_t>(c)), want),
                     qPrintable(describe(Dtype::F4, c, decode::f4(static_cast<std::uint8_t>(c)), want)));
        }
        // Element 2i is the LOW nibble (PyTorch float4_e2m1fn_x2 packing).
        const std::byte bytes[2] = {std::byte{0x21}, std::byte{0xf7}};
        const std::span<const std::byte> s(bytes, 2);
        QCOMPARE(decode::element(Dtype::F4, s, 0), 0.5);
        QCOMPARE(decode::element(Dtype::F4, s, 1), 1.0);
        QCOMPARE(decode::element(Dtype::F4, s, 2), 6.0);
        QCOMPARE(decode::element(Dtype::F4, s, 3), -6.0);
        float out[3];
        decode::decodeToFloat(Dtype::F4, bytes, 3, out); // odd count: the last high nibble is unused
        QCOMPARE(out[0], 0.5f);
        QCOMPARE(out[1], 1.0f);
        QCOMPARE(out[2], 6.0f);
    }
    void f6KnownValuesAndBitOrder()
    {
        checkByteTable(Dtype::F6_E2M3, {{0x00, 0.0},
                                        {0x20, -0.0},
                                        {0x01, 0.125},
                                        {0x07, 0.875},
                                        {0x08, 1.0},
                                        {0x1f, 7.5},
                                        {0x3f, -7.5},
                                        {0x10, 2.0}});
        checkByteTable(Dtype::F6_E3M2, {{0x00, 0.0},
                                        {0x01, 0.0625},
                                        {0x04, 0.25},
                                        {0x0c, 1.0},
                                        {0x1f, 28.0},
                                        {0x3f, -28.0},
                                        {0x03, 0.1875}});
        // Four codes in three bytes, element k at bits [6k, 6k+6) of a little-endian 24-bit word.
        const unsigned codes[8] = {0x08, 0x1f, 0x01, 0x3f, 0x10, 0x00, 0x07, 0x20};
        std::vector<std::byte> packed(6);
        for (int g = 0; g < 2; ++g) {
            std::uint32_t w = 0;
            for (int k = 0; k < 4; ++k)
                w |= codes[g * 4 + k] << (6 * k);
            for (int b = 0; b < 3; ++b)
                packed[static_cast<std::size_t>(g * 3 + b)] = static_cast<std::byte>((w >> (8 * b)) & 0xff);
        }
        QCOMPARE(std::to_integer<int>(packed[0]), 0x08 | (0x1f << 6 & 0xff)); // byte0 = x0 | x1 << 6
        const double want[8] = {1.0, 7.5, 0.125, -7.5, 2.0, 0.0, 0.875, -0.0};
        float out[8];
        for (std::size_t n : {std::size_t(8), std::size_t(7), std::size_t(5)}) {
            decode::decodeToFloat(Dtype::F6_E2M3, packed.data(), n, out);
            for (std::size_t i = 0; i < n; ++i) {
                QVERIFY2(sameValue(out[i], want[i]), qPrintable(QStringLiteral("n=%1 i=%2").arg(n).arg(i)));
                QVERIFY(sameValue(decode::element(Dtype::F6_E2M3, packed, i), want[i]));
            }
        }
    }
    void integersBoolAndWideFloats()
    {
        auto bytesOf = [](auto v) {
            std::vector<std::byte> b(sizeof v);
            std::memcpy(b.data(), &v, sizeof v);
            return b;
        };
        QCOMPARE(decode::element(Dtype::I8, bytesOf(std::uint8_t{0xff}), 0), -1.0);
        QCOMPARE(decode::element(Dtype::U8, bytesOf(std::uint8_t{0xff}), 0), 255.0);
        QCOMPARE(decode::element(Dtype::I16, bytesOf(std::uint16_t{0x8000}), 0), -32768.0);
        QCOMPARE(decode::element(Dtype::U16, bytesOf(std::uint16_t{0xffff}), 0), 65535.0);
        QCOMPARE(decode::element(Dtype::I32, bytesOf(std::int32_t{-2147483647 - 1}), 0), -2147483648.0);
        QCOMPARE(decode::element(Dtype::U32, bytesOf(std::uint32_t{0xffffffffu}), 0), 4294967295.0);
        QCOMPARE(decode::element(Dtype::I64, bytesOf(std::int64_t{-5}), 0), -5.0);
        QCOMPARE(decode::element(Dtype::U64, bytesOf(std::uint64_t{1} << 63), 0), 0x1p63);
        QCOMPARE(decode::element(Dtype::F64, bytesOf(0.1), 0), 0.1);
        QCOMPARE(decode::element(Dtype::F32, bytesOf(1.5f), 0), 1.5);
        const float c[2] = {3.0f, -4.0f};
        std::vector<std::byte> cb(8);
        std::memcpy(cb.data(), c, 8);
        QCOMPARE(decode::element(Dtype::C64, cb, 0), 3.0); // the real part
        const std::byte b[3] = {std::byte{0}, std::byte{1}, std::byte{2}};
        float out[3];
        decode::decodeToFloat(Dtype::BOOL, b, 3, out);
        QCOMPARE(out[0], 0.0f);
        QCOMPARE(out[1], 1.0f);
        QCOMPARE(out[2], 1.0f); // non-0/1 bytes read as true; the scan reports them separately
    }
    void bulkDecoderMatchesScalarForEveryCode()
    {
        for (Dtype d : {Dtype::F8_E4M3, Dtype::F8_E5M2, Dtype::F8_E8M0, Dtype::F8_E4M3FNUZ,
                        Dtype::F8_E5M2FNUZ, Dtype::U8, Dtype::I8, Dtype::BOOL}) {
            std::vector<std::byte> all(256);
            for (int i = 0; i < 256; ++i)
                all[static_cast<std::size_t>(i)] = static_cast<std::byte>(i);
            std::vector<float> out(256);
            decode::decodeToFloat(d, all.data(), 256, out.data());
            for (unsigned i = 0; i < 256; ++i)
                QVERIFY2(sameValue(out[i], decode::element(d, all, i)),
                         qPrintable(describe(d, i, out[i], 0)));
        }
    }
    // F16, BF16, F8_E4M3 and F8_E5M2 go through SIMD lanes: all their patterns, bit-exact, on
    // every instruction set the binary carries (the dispatcher forced to each in turn): without
    // F16C Highway widens F16 in software, which once read Inf and NaN as 65536 and 98304.
    void simdCodesDecodeTheSameOnEveryTarget()
    {
        const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
        QVERIFY2(targets.size() >= 2, "expected the best target and at least the scalar fallback");
        for (const std::int64_t target : targets) {
            hwy::SetSupportedTargetsForTest(target);
            halfCodesDecodeExactly(hwy::TargetName(target));
            f8CodesDecodeExactly(hwy::TargetName(target));
            hwy::SetSupportedTargetsForTest(0);
            if (QTest::currentTestFailed())
                return;
        }
    }

private:
    void halfCodesDecodeExactly(const char* target)
    {
        for (Dtype d : {Dtype::F16, Dtype::BF16}) {
            std::vector<std::uint16_t> codes(65536);
            for (unsigned i = 0; i < 65536; ++i)
                codes[i] = static_cast<std::uint16_t>(i);
            std::vector<float> out(65536);
            decode::decodeToFloat(d, reinterpret_cast<const std::byte*>(codes.data()), codes.size(),
                                  out.data());
            // Bit for bit, NaNs included: F16C keeps a NaN's payload where the scalar decoder (and
            // the converter's output) has the quiet NaN with the sign.
            for (unsigned i = 0; i < 65536; ++i) {
                const float want = d == Dtype::F16 ? decode::f16(codes[i]) : decode::bf16(codes[i]);
                QVERIFY2(std::bit_cast<std::uint32_t>(out[i]) == std::bit_cast<std::uint32_t>(want),
                         qPrintable(
                             QString::fromLatin1(target) + QStringLiteral(": ") +
                             describe(d, i, out[i], want) +
                             QStringLiteral(" (bits %1)").arg(std::bit_cast<std::uint32_t>(out[i]), 8, 16)));
            }
        }
    }

    // Every F8 code three times over and a few more (the tail after the vectors), into floats one
    // byte off their alignment as the converter hands them over, against the scalar decoder.
    void f8CodesDecodeExactly(const char* target)
    {
        for (Dtype d : {Dtype::F8_E4M3, Dtype::F8_E5M2}) {
            std::vector<std::byte> codes(3 * 256 + 7);
            for (std::size_t i = 0; i < codes.size(); ++i)
                codes[i] = static_cast<std::byte>((i * 37 + i / 256) & 0xff);
            std::vector<std::byte> out(4 * codes.size() + 1);
            decode::decodeToFloat(d, codes.data(), codes.size(), reinterpret_cast<float*>(out.data() + 1));
            for (std::size_t i = 0; i < codes.size(); ++i) {
                std::uint32_t got;
                std::memcpy(&got, out.data() + 1 + 4 * i, 4);
                const float want = decode::f8(d, std::to_integer<std::uint8_t>(codes[i]));
                QVERIFY2(got == std::bit_cast<std::uint32_t>(want),
                         qPrintable(QString::fromLatin1(target) + QStringLiteral(": ") +
                                    describe(d, std::to_integer<unsigned>(codes[i]),
                                             std::bit_cast<float>(got), want) +
                                    QStringLiteral(" (bits %1)").arg(got, 8, 16)));
            }
        }
    }

private Q_SLOTS:
    // One rule for every NaN code, which the converter writes into files: the quiet NaN with the
    // code's sign (BF16: the float whose top half it is, payload and all).
    void nanCodesKeepTheirSign()
    {
        const auto bits = [](float x) { return std::bit_cast<std::uint32_t>(x); };
        QCOMPARE(bits(decode::f16(0x7e01)), 0x7fc00000u);
        QCOMPARE(bits(decode::f16(0xfc01)), 0xffc00000u);
        QCOMPARE(bits(decode::f16(0xfc00)), 0xff800000u);
        QCOMPARE(bits(decode::bf16(0xffa1)), 0xffa10000u);
        QCOMPARE(bits(decode::f8(Dtype::F8_E4M3, 0xff)), 0xffc00000u);
        QCOMPARE(bits(decode::f8(Dtype::F8_E4M3, 0x7f)), 0x7fc00000u);
        QCOMPARE(bits(decode::f8(Dtype::F8_E5M2, 0xfe)), 0xffc00000u);
        QCOMPARE(bits(decode::f8(Dtype::F8_E8M0, 0xff)), 0x7fc00000u); // no sign bit in E8M0
    }
    void minNormals()
    {
        QCOMPARE(decode::minNormal(Dtype::F16), 0x1p-14);
        QCOMPARE(decode::minNormal(Dtype::F8_E4M3), 0x1p-6);
        QCOMPARE(decode::minNormal(Dtype::F8_E4M3FNUZ), 0x1p-7);
        QCOMPARE(decode::minNormal(Dtype::F8_E5M2FNUZ), 0x1p-15);
        QCOMPARE(decode::minNormal(Dtype::F8_E8M0), 0.0);
        QCOMPARE(decode::minNormal(Dtype::I32), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestDtypeDecoding)
#include "tst_dtype_decoding.moc"
