// CodeCounter against a plain reference count: every 16-bit code, counted in pieces of every
// length (the unrolled loop and its tail), handed over in code order with the table emptied, the
// same thread's counter reused for one dtype after another.
#include "analysis/CodeCounter.h"

#include <QTest>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <vector>

using namespace ts;

namespace {

std::vector<std::byte> bytesOf(const std::vector<std::uint16_t>& codes)
{
    std::vector<std::byte> out(2 * codes.size());
    std::memcpy(out.data(), codes.data(), out.size());
    return out;
}

// Counts `codes` as `dtype` in pieces of uneven length (the tail loop included) and checks
// countOf before take() and the entries take() hands over.
void checkCounts(Dtype dtype, const std::vector<std::uint16_t>& codes)
{
    std::map<std::uint32_t, std::uint64_t> expected;
    for (std::uint16_t c : codes)
        ++expected[c];
    CodeCounter& counter = CodeCounter::forThread(65536);
    const std::vector<std::byte> bytes = bytesOf(codes);
    for (std::size_t at = 0, piece = 1; at < codes.size(); at += piece, piece = piece * 3 + 1) {
        piece = std::min(piece, codes.size() - at);
        counter.addCodes(dtype, bytes.data() + 2 * at, piece);
    }
    QCOMPARE(counter.total(), std::uint64_t(codes.size()));
    for (const auto& [code, count] : expected)
        QCOMPARE(counter.countOf(code), count);
    if (expected.count(0x1234u) == 0)
        QCOMPARE(counter.countOf(0x1234u), std::uint64_t(0));
    const CodeCounts taken = counter.take();
    QCOMPARE(taken.entries().size(), expected.size());
    auto it = expected.begin();
    for (const CodeCount& e : taken.entries()) {
        QCOMPARE(e.code, it->first);
        QCOMPARE(e.count, it->second);
        ++it;
    }
    QCOMPARE(counter.total(), std::uint64_t(0));
}

} // namespace

class TestCodeCounter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every code from 0 to 0xffff, code c (c % 5) + 1 times, shuffled.
    void everyCode_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("F16") << static_cast<int>(Dtype::F16);
        QTest::newRow("BF16") << static_cast<int>(Dtype::BF16);
    }
    void everyCode()
    {
        QFETCH(int, dtype);
        std::vector<std::uint16_t> codes;
        for (std::uint32_t c = 0; c < 65536; ++c)
            codes.insert(codes.end(), c % 5 + 1, static_cast<std::uint16_t>(c));
        std::shuffle(codes.begin(), codes.end(), std::mt19937(7));
        checkCounts(static_cast<Dtype>(dtype), codes);
    }

    // Runs of one code (each increment waits on the one before) and a code next to every count, then
    // the same thread's counter again for another dtype: nothing of one count leaks into the next.
    void runsAndReuse()
    {
        std::vector<std::uint16_t> codes(5000, 0x3c00);
        codes.insert(codes.end(), 33, 0x3c01);
        codes.push_back(0xffff);
        checkCounts(Dtype::F16, codes);
        checkCounts(Dtype::BF16, {0x0001, 0x0008, 0x0009, 0x7f80, 0xffff, 0x0008});
        checkCounts(Dtype::F16, codes);
    }

    // anyCounted over runs of the table: true exactly when a counted code lies in [from, to).
    void anyCountedSeesExactlyItsRun()
    {
        const std::vector<std::uint16_t> codes{0x0000, 0x3c00, 0x3c00, 0x7bff, 0x8001, 0xffff};
        const std::vector<std::byte> bytes = bytesOf(codes);
        CodeCounter& counter = CodeCounter::forThread(65536);
        counter.addCodes(Dtype::F16, bytes.data(), codes.size());
        for (std::uint32_t from :
             {0u, 1u, 0x3bffu, 0x3c00u, 0x3c01u, 0x7bffu, 0x7c00u, 0x8000u, 0x8001u, 0xfffeu}) {
            for (std::uint32_t to : {from, from + 1, from + 2, from + 0x401, 0x10000u}) {
                if (to < from || to > 0x10000u)
                    continue;
                const bool expected = std::any_of(codes.begin(), codes.end(),
                                                  [&](std::uint16_t c) { return c >= from && c < to; });
                QVERIFY2(counter.anyCounted(from, to) == expected,
                         qPrintable(QStringLiteral("[%1, %2)").arg(from, 0, 16).arg(to, 0, 16)));
            }
        }
        counter.take();
        QVERIFY(!counter.anyCounted(0, 0x10000u));
    }
};

QTEST_APPLESS_MAIN(TestCodeCounter)
#include "tst_code_counter.moc"
