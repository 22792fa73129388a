// CodedAccumulator's absmax and its position against a brute-force search, for BF16 and F16 in
// pieces: the largest magnitude grows from piece to piece (so each piece must notice a larger
// code than any before), a value of the same magnitude and the other sign comes later (the first
// one stays), and NaN and Inf codes, whose bits lie above every finite magnitude, never count.
#include "analysis/CodedAccumulator.h"
#include "codec/CodeTable.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace ts;

namespace {

struct Expected {
    double absmax = 0;
    std::optional<std::uint64_t> index;
};

Expected bruteForce(const CodeTable& table, const std::vector<std::uint16_t>& codes)
{
    Expected e;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        const float x = table.value(codes[i]);
        if (!std::isfinite(x))
            continue;
        if (!e.index || std::fabs(x) > e.absmax) {
            e.absmax = std::fabs(x);
            e.index = i;
        }
    }
    return e;
}

// Codes of `dtype` in pieces of `pieceLength`: piece k holds magnitudes below a limit that grows
// with k, random signs, and NaN/Inf codes sprinkled in; one piece repeats the largest magnitude so
// far with the other sign.
std::vector<std::uint16_t> growingCodes(Dtype dtype, std::size_t pieces, std::size_t pieceLength,
                                        unsigned seed)
{
    const std::uint32_t inf = dtype == Dtype::BF16 ? 0x7f80u : 0x7c00u;
    std::mt19937 rng(seed);
    std::vector<std::uint16_t> codes;
    std::uint16_t largest = 0;
    for (std::size_t k = 0; k < pieces; ++k) {
        const std::uint32_t limit = 0x100u + static_cast<std::uint32_t>((inf - 0x100u) * (k + 1) / pieces);
        for (std::size_t i = 0; i < pieceLength; ++i) {
            std::uint32_t magnitude = rng() % limit;
            if (rng() % 97 == 0)
                magnitude = inf + rng() % 2 * (1 + rng() % 64); // Inf, or a NaN
            const auto code = static_cast<std::uint16_t>(magnitude | (rng() % 2 ? 0x8000u : 0u));
            if (magnitude < inf && magnitude > (largest & 0x7fffu))
                largest = code;
            codes.push_back(code);
        }
        if (k == pieces / 2)
            codes[codes.size() - 3] =
                static_cast<std::uint16_t>(largest ^ 0x8000u); // same magnitude, other sign
    }
    return codes;
}

// The statistics of `codes` added to one accumulator in pieces of `pieceLength` (the last one shorter).
ValueStats accumulated(Dtype dtype, const std::vector<std::uint16_t>& codes, std::size_t pieceLength)
{
    std::vector<std::byte> bytes(2 * codes.size());
    std::memcpy(bytes.data(), codes.data(), bytes.size());
    CodedAccumulator accumulator(dtype);
    for (std::size_t at = 0; at < codes.size(); at += pieceLength)
        accumulator.add(bytes.data() + 2 * at, std::min(pieceLength, codes.size() - at), at);
    CodeCounts counts;
    return accumulator.finish(counts);
}

} // namespace

class TestCodedAccumulator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void absmaxAcrossPieces_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("pieceLength");
        for (Dtype d : {Dtype::BF16, Dtype::F16}) {
            for (int length : {1, 7, 4096, 100003}) {
                QTest::newRow(qPrintable(QStringLiteral("%1, pieces of %2").arg(dtypeName(d)).arg(length)))
                    << static_cast<int>(d) << length;
            }
        }
    }
    void absmaxAcrossPieces()
    {
        QFETCH(int, dtype);
        QFETCH(int, pieceLength);
        const auto d = static_cast<Dtype>(dtype);
        const std::size_t length = static_cast<std::size_t>(pieceLength);
        for (unsigned seed : {1u, 2u, 3u}) {
            const std::vector<std::uint16_t> codes = growingCodes(d, 12, length, seed);
            const ValueStats s = accumulated(d, codes, length);
            const Expected e = bruteForce(CodeTable::of(d), codes);
            QCOMPARE(s.absmax, e.absmax);
            QCOMPARE(s.absmaxIndex, e.index);
        }
    }

    // Zeros first, then one small value far into the tensor: zero is a magnitude too, and the
    // value that beats it is found in its own piece.
    void zerosThenOneValue()
    {
        for (Dtype d : {Dtype::BF16, Dtype::F16}) {
            std::vector<std::uint16_t> codes(50000, 0x8000); // -0
            codes[41234] = 0x0001;                           // the smallest value above zero
            const ValueStats s = accumulated(d, codes, 4096);
            QCOMPARE(s.absmaxIndex, std::optional<std::uint64_t>(41234));
            QVERIFY(s.absmax > 0);
        }
    }

    // The absmax one code above the largest magnitude of the pieces before it, in a piece of its
    // own, with either sign; a later value of the same magnitude and the other sign is not larger
    // (the first stays).
    void stepOfOneCode_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>("negative");
        for (Dtype d : {Dtype::BF16, Dtype::F16}) {
            QTest::newRow(qPrintable(dtypeName(d) + QStringLiteral(", +"))) << static_cast<int>(d) << false;
            QTest::newRow(qPrintable(dtypeName(d) + QStringLiteral(", -"))) << static_cast<int>(d) << true;
        }
    }
    void stepOfOneCode()
    {
        QFETCH(int, dtype);
        QFETCH(bool, negative);
        const auto d = static_cast<Dtype>(dtype);
        const std::uint16_t one = d == Dtype::BF16 ? 0x3f80 : 0x3c00;
        const std::uint16_t sign = negative ? 0x8000 : 0;
        std::vector<std::uint16_t> codes(4 * 4096, one);
        codes[4096 + 17] = static_cast<std::uint16_t>(sign | (one + 1u));
        codes[2 * 4096 + 5] = static_cast<std::uint16_t>((sign ^ 0x8000u) | (one + 1u));
        const ValueStats s = accumulated(d, codes, 4096);
        QCOMPARE(s.absmaxIndex, std::optional<std::uint64_t>(4096 + 17));
        QCOMPARE(s.absmax, double(std::fabs(CodeTable::of(d).value(one + 1u))));
    }
};

QTEST_APPLESS_MAIN(TestCodedAccumulator)
#include "tst_coded_accumulator.moc"
