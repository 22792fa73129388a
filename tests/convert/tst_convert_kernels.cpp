// The conversion kernels, pinned bit for bit: every pair of floating dtypes over inputs that hit
// every rounding rule, on every SIMD target the binary carries (the dispatcher forced to each in
// turn), gives the output bytes and counts whose SHA-256 is in kDigests. The digests were taken
// from the converter before it moved onto Highway (target_clones, F16C and AVX512_BF16 kernels,
// a 65,536-entry F16 table), so a kernel that changes one output bit on one target fails here.
// Set TS_PRINT_DIGESTS=1 to print the table for the current build.
#include "convert/DtypeConverter.h"

#include <QCryptographicHash>
#include <QScopeGuard>
#include <QTest>

#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace ts;

namespace {

const Dtype kDtypes[] = {Dtype::F64, Dtype::F32, Dtype::F16, Dtype::BF16, Dtype::F8_E4M3, Dtype::F8_E5M2};

struct Digest {
    Dtype from;
    Dtype to;
    const char* sha256;
};

// clang-format off
const Digest kDigests[] = {
    {Dtype::F64, Dtype::F32, "c2ba2d0367cec0273fe6269da8056f387b21d7303e363acec4025872efbfa5b9"},
    {Dtype::F64, Dtype::F16, "1350ab2e584c05e03366e1e99256a7eecaccedeac3ea52d04f6cce6d3753b123"},
    {Dtype::F64, Dtype::BF16, "cfefc7ccd6935aa5815ebd0572b305d9fefcdeeff05680e6aac7d86395137bf9"},
    {Dtype::F64, Dtype::F8_E4M3, "263c32187251203245f29ff171d8eb4a0f38643ad8b497f8642a9e25baa546d2"},
    {Dtype::F64, Dtype::F8_E5M2, "73c1a886af52a517ce67606632f789c674879248482f8dceeb7035f865b1d0db"},
    {Dtype::F32, Dtype::F64, "50de51eb7981c4cbb6abe9f457b955520b8871677963807e7ed14733836af843"},
    {Dtype::F32, Dtype::F16, "3166347f03c521e8346fcdd99c908394c819e66839240dc7cdfaf832ad2bac7d"},
    {Dtype::F32, Dtype::BF16, "9e5ba8df0ad5f8724e038656cce9d4ef54561809457a4d5a576c00fb4c870404"},
    {Dtype::F32, Dtype::F8_E4M3, "0593ee9eb0bcfbcc7b8f2b729c7ceb6079d3b2e20a733fa9ac61e99afdb363f6"},
    {Dtype::F32, Dtype::F8_E5M2, "f241f9dc51dba8e55c76ddb8b0c1a7717fe934a2f0906557b9f1d7480ec6de48"},
    {Dtype::F16, Dtype::F64, "201663d46a63c7fc459cfb676f03c0b92ac0a2b2fc2732c935e25c60c66f24c9"},
    {Dtype::F16, Dtype::F32, "ab6553ead7f0b1e19cc5450a0418d8c30ca35c3783590ca6952d83305d7e1739"},
    {Dtype::F16, Dtype::BF16, "b6a2e472678f9a3cf28c8856b02cde3c7e7669de47cb92e38ee79e7f01648742"},
    {Dtype::F16, Dtype::F8_E4M3, "14adba28eb2e2667b65b89ada666987548ed8f51a397854ec6a9f87647c0d0bb"},
    {Dtype::F16, Dtype::F8_E5M2, "9c93d6a453fc4ba4fed071ae9fe0cb20021c1f380fab073108312fff65e771c4"},
    {Dtype::BF16, Dtype::F64, "bb2a6352008bdda0e7720022c90704335ceee83e7cc3f35bc05b6c60b5fd9d2d"},
    {Dtype::BF16, Dtype::F32, "116e1a194dcf5641ac511bb560393e87abb0ddba6e7d8256e77513cad462f366"},
    {Dtype::BF16, Dtype::F16, "75efb4dbabbd62153d1a6b25af4fb6c76b089711b3e6014e287ae26b93d04109"},
    {Dtype::BF16, Dtype::F8_E4M3, "720e742e98d4b24616e49eecd7af0b5bcb862875e4eda88e985f6f7c54a1319f"},
    {Dtype::BF16, Dtype::F8_E5M2, "946807e4136c83ed11dbf329a8ff4b87781f64e1601f91519db07872997ef498"},
    {Dtype::F8_E4M3, Dtype::F64, "5d496f5d7a020217d310a8646cfa0f4d39bdb8c6a3ae459fb04fa8497ea508d3"},
    {Dtype::F8_E4M3, Dtype::F32, "a9d2d564203e7038016bbf47936104dfd57d0311ee0ecb21b6a273ccd794eae0"},
    {Dtype::F8_E4M3, Dtype::F16, "d44fccb5140b1bf71f1abd7dcdca792bf5c1be8bad74ee707224d58f78e75964"},
    {Dtype::F8_E4M3, Dtype::BF16, "fdffb170aacac50b48ba5e6893bf19bb47df64fb1d3be2a053c2fdc189135750"},
    {Dtype::F8_E4M3, Dtype::F8_E5M2, "047151cc3387eafedaea3e59796fd64517d931f7fb4d16d238a0d988cca06cc9"},
    {Dtype::F8_E5M2, Dtype::F64, "7bd1f54092beddf91fc3286e83c16d91a475cf0b563194538c65ce4a306bf8aa"},
    {Dtype::F8_E5M2, Dtype::F32, "76cfcdd4f599077edd776d9cc151a036006d30ee84e3d964631f0afc84ce858e"},
    {Dtype::F8_E5M2, Dtype::F16, "ee0fca1461371dc92b06dc211be64f79e1f9667a32e3089ea999f5b7fa0be773"},
    {Dtype::F8_E5M2, Dtype::BF16, "d513110dda3dc754abe0fcff2582575c90f396e63a2dd2c502ef7c762056ff90"},
    {Dtype::F8_E5M2, Dtype::F8_E4M3, "271ffedc699209e0ccc278998a7af58adcf391004be18dbc037d0881dfb4f67a"},
};
// clang-format on

// A minifloat code's value from its field widths, independent of any code under test.
double minifloat(std::uint32_t code, int expBits, int mantBits, bool hasInf)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const std::uint32_t expMask = (1u << expBits) - 1, mantMask = (1u << mantBits) - 1;
    const std::uint32_t e = (code >> mantBits) & expMask, m = code & mantMask;
    const double sign = (code >> (expBits + mantBits)) & 1 ? -1.0 : 1.0;
    if (e == expMask && (hasInf || m == mantMask))
        return hasInf && m == 0 ? sign * HUGE_VAL : std::nan("");
    const double mag = e == 0 ? std::ldexp(m, 1 - bias - mantBits)
                              : std::ldexp(m | (mantMask + 1), int(e) - bias - mantBits);
    return sign * mag;
}

// Doubles that probe every rule of every narrow target: specials, each target code, the midpoints
// between neighbours (ties) and one float and one double step either side, random bit patterns.
std::vector<double> probeDoubles()
{
    std::vector<double> v{0.0,          -0.0,          1.0,
                          -1.0,         HUGE_VAL,      -HUGE_VAL,
                          std::nan(""), -std::nan(""), 65504,
                          65519.99,     65520,         65536,
                          448,          464,           465,
                          480,          57344,         61440,
                          61441,        3.0e38,        1e-45,
                          0x1p-25,      0x1p-24,       0x1p-149,
                          0x1p-133,     0x1.8p-24,     3.4028234663852886e38};
    struct Narrow {
        int expBits, mantBits;
        bool hasInf;
    };
    for (const Narrow f :
         {Narrow{5, 10, true}, Narrow{8, 7, true}, Narrow{4, 3, false}, Narrow{5, 2, true}}) {
        const std::uint32_t codes = 1u << (1 + f.expBits + f.mantBits);
        for (std::uint32_t c = 0; c + 1 < codes; ++c) {
            const double a = minifloat(c, f.expBits, f.mantBits, f.hasInf);
            const double z = minifloat(c + 1, f.expBits, f.mantBits, f.hasInf);
            if (!std::isfinite(a) || !std::isfinite(z) || std::signbit(a) != std::signbit(z))
                continue;
            const double mid = (a + z) / 2;
            for (double x : {a, mid, double(std::nextafter(float(mid), HUGE_VALF)),
                             double(std::nextafter(float(mid), -HUGE_VALF)), std::nextafter(mid, HUGE_VAL),
                             std::nextafter(mid, -HUGE_VAL)})
                v.push_back(x);
        }
    }
    std::mt19937_64 rng(20261201);
    for (int i = 0; i < 200000; ++i) {
        v.push_back(std::bit_cast<double>(rng()));
        v.push_back(double(std::bit_cast<float>(static_cast<std::uint32_t>(rng()))));
    }
    return v;
}

// The input bytes for one source dtype.
std::vector<std::byte> inputFor(Dtype from, const std::vector<double>& probes)
{
    std::vector<std::byte> out;
    auto append = [&](const void* p, std::size_t n) {
        const auto* b = static_cast<const std::byte*>(p);
        out.insert(out.end(), b, b + n);
    };
    switch (from) {
    case Dtype::F64:
        append(probes.data(), probes.size() * 8);
        break;
    case Dtype::F32:
        for (double x : probes) {
            const float f = static_cast<float>(x);
            append(&f, 4);
        }
        // The whole 32-bit space in steps, both signs, every exponent, NaN payloads, subnormals.
        for (std::uint64_t u = 0; u <= 0xffffffffull; u += 4099) {
            const auto bits = static_cast<std::uint32_t>(u);
            append(&bits, 4);
        }
        for (std::uint32_t bits :
             {0x7f7f8000u, 0x7f7f7fffu, 0xff7f8000u, 0x00800000u, 0x007fffffu, 0x80000001u, 0x3f808000u,
              0x3f818000u, 0x477ff000u, 0x477fefffu, 0x33000000u, 0x33000001u, 0x7fc00000u, 0x7fffff00u,
              0xffa02000u, 0x7f800001u, 0xff8fe000u})
            append(&bits, 4);
        break;
    case Dtype::F16:
    case Dtype::BF16:
        for (std::uint32_t c = 0; c < 65536; ++c) {
            const auto code = static_cast<std::uint16_t>(c);
            append(&code, 2);
        }
        break;
    default:
        for (std::uint32_t c = 0; c < 256; ++c) {
            const auto code = static_cast<std::uint8_t>(c);
            append(&code, 1);
        }
        break;
    }
    return out;
}

struct Converted {
    std::vector<std::byte> bytes;
    ConversionCounts counts;
};

// Converts in pieces of irregular lengths (every kernel's tail, and one longer than the kernels'
// 65,536-element counter blocks), from and into buffers one byte off their alignment
// (ConvertingSource hands over any address).
Converted convertInPieces(Dtype from, Dtype to, const std::vector<std::byte>& in)
{
    const std::size_t inSize = static_cast<std::size_t>(dtypeBits(from) / 8);
    const std::size_t outSize = static_cast<std::size_t>(dtypeBits(to) / 8);
    const std::size_t n = in.size() / inSize;
    std::vector<std::byte> src(in.size() + 1), dst(n * outSize + 1);
    std::memcpy(src.data() + 1, in.data(), in.size());
    Converted c;
    static const std::size_t kPieces[] = {1, 3, 16, 17, 31, 64, 100, 1000, 4097, 65536, 150001};
    std::size_t done = 0;
    for (std::size_t k = 0; done < n; ++k) {
        const std::size_t piece = std::min(kPieces[k % std::size(kPieces)], n - done);
        DtypeConverter::convert(from, to, src.data() + 1 + done * inSize, dst.data() + 1 + done * outSize,
                                piece, c.counts);
        done += piece;
    }
    c.bytes.assign(dst.begin() + 1, dst.end());
    return c;
}

QByteArray digestOf(const Converted& c)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(QByteArrayView(reinterpret_cast<const char*>(c.bytes.data()),
                             static_cast<qsizetype>(c.bytes.size())));
    for (std::uint64_t n : {c.counts.overflowed, c.counts.underflowed, c.counts.nan})
        h.addData(QByteArrayView(reinterpret_cast<const char*>(&n), 8));
    return h.result().toHex();
}

} // namespace

class TestConvertKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPairMatchesItsDigest_data()
    {
        QTest::addColumn<qint64>("target");
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
            QTest::newRow(hwy::TargetName(target)) << static_cast<qint64>(target);
    }

    void everyPairMatchesItsDigest()
    {
        QFETCH(qint64, target);
        hwy::SetSupportedTargetsForTest(target);
        const auto restore = qScopeGuard([] { hwy::SetSupportedTargetsForTest(0); });
        const bool print = qEnvironmentVariableIsSet("TS_PRINT_DIGESTS");
        const std::vector<double> probes = probeDoubles();
        int checked = 0;
        for (const Dtype from : kDtypes) {
            const std::vector<std::byte> in = inputFor(from, probes);
            for (const Dtype to : kDtypes) {
                if (from == to)
                    continue;
                const QByteArray got = digestOf(convertInPieces(from, to, in));
                if (print) {
                    std::printf("    {Dtype::%s, Dtype::%s, \"%s\"},\n", dtypeNameLatin1(from),
                                dtypeNameLatin1(to), got.constData());
                    continue;
                }
                const auto* it = std::find_if(std::begin(kDigests), std::end(kDigests),
                                              [&](const Digest& d) { return d.from == from && d.to == to; });
                QVERIFY2(
                    it != std::end(kDigests),
                    qPrintable(QStringLiteral("no digest for %1 -> %2").arg(dtypeName(from), dtypeName(to))));
                QVERIFY2(got == it->sha256,
                         qPrintable(QStringLiteral("%1 -> %2 on %3: output differs")
                                        .arg(dtypeName(from), dtypeName(to),
                                             QString::fromLatin1(hwy::TargetName(target)))));
                ++checked;
            }
        }
        if (!print)
            QCOMPARE(checked, 30);
    }
};

QTEST_GUILESS_MAIN(TestConvertKernels)
#include "tst_convert_kernels.moc"
