// PieceBuffer hands a reader's buffer on to the next reader on the same thread (a whole-model scan
// makes a reader per 8 MiB chunk): checked by the storage address, which a fresh allocation of a
// multi-MiB buffer would not repeat while the first is still held. Each case runs on a thread of
// its own, which starts with no spares; the checks run on the test's thread.
#include "io/PieceBuffer.h"

#include <QTest>

#include <cstring>
#include <thread>
#include <vector>

using namespace ts;

namespace {

constexpr std::size_t kPiece = 4u << 20;

template <typename F> void onFreshThread(F&& body)
{
    std::thread t(std::forward<F>(body));
    t.join();
}

} // namespace

class TestPieceBuffer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theNextReaderOnTheThreadGetsTheSameBuffer()
    {
        std::byte* first = nullptr;
        std::byte* next = nullptr;
        std::byte* small = nullptr;
        std::size_t spareBefore = 1, spareAfter = 0, capacity = 0;
        onFreshThread([&] {
            spareBefore = PieceBuffer::spareBytesOnThisThread();
            {
                PieceBuffer reader;
                first = reader.reserve(kPiece);
                std::memset(first, 0x5a, kPiece); // usable over its whole length
                capacity = reader.capacity();
            }
            spareAfter = PieceBuffer::spareBytesOnThisThread();
            {
                PieceBuffer r;
                next = r.reserve(kPiece);
            }
            PieceBuffer r; // a small tensor's reader takes the big spare instead of allocating
            small = r.reserve(4096);
        });
        QCOMPARE(spareBefore, std::size_t{0});
        QVERIFY(capacity >= kPiece);
        QVERIFY(spareAfter >= kPiece);
        QCOMPARE(next, first);
        QCOMPARE(small, first);
    }

    void twoReadersInStepBothReuse()
    {
        std::byte* a = nullptr;
        std::byte* b = nullptr;
        std::vector<std::pair<std::byte*, std::byte*>> rounds;
        onFreshThread([&] {
            {
                PieceBuffer x, y;
                a = x.reserve(kPiece);
                b = y.reserve(kPiece);
            }
            for (int round = 0; round < 3; ++round) {
                PieceBuffer x, y;
                rounds.emplace_back(x.reserve(kPiece), y.reserve(kPiece));
            }
        });
        QVERIFY(a != b);
        for (const auto& [p, q] : rounds)
            QVERIFY((p == a && q == b) || (p == b && q == a));
    }

    void aLargerRequestAllocatesAndLeavesTheSmallerSpare()
    {
        std::byte* small = nullptr;
        std::byte* big = nullptr;
        std::byte* again = nullptr;
        std::size_t bigCapacity = 0;
        onFreshThread([&] {
            {
                PieceBuffer r;
                small = r.reserve(kPiece);
            }
            PieceBuffer large;
            big = large.reserve(2 * kPiece);
            std::memset(big, 1, 2 * kPiece);
            bigCapacity = large.capacity();
            PieceBuffer other;
            again = other.reserve(kPiece);
        });
        QVERIFY(big != small);
        QVERIFY(bigCapacity >= 2 * kPiece);
        QCOMPARE(again, small);
    }

    void smallBuffersAreNotKeptAndThreadsDoNotShare()
    {
        std::size_t afterTiny = 1, afterPiece = 0, otherThread = 1;
        onFreshThread([&] {
            {
                PieceBuffer tiny;
                tiny.reserve(1024);
            }
            afterTiny = PieceBuffer::spareBytesOnThisThread();
            {
                PieceBuffer piece;
                piece.reserve(kPiece);
            }
            afterPiece = PieceBuffer::spareBytesOnThisThread();
            onFreshThread([&] { otherThread = PieceBuffer::spareBytesOnThisThread(); });
        });
        QCOMPARE(afterTiny, std::size_t{0});
        QVERIFY(afterPiece >= kPiece);
        QCOMPARE(otherThread, std::size_t{0});
    }

    void aMoveLeavesOneOwner()
    {
        PieceBuffer a;
        std::byte* p = a.reserve(kPiece);
        PieceBuffer b(std::move(a));
        QVERIFY(b.capacity() >= kPiece);
        QCOMPARE(a.capacity(), std::size_t{0}); // NOLINT(bugprone-use-after-move): the point
        QCOMPARE(b.reserve(kPiece), p);
    }
};

QTEST_GUILESS_MAIN(TestPieceBuffer)
#include "tst_piece_buffer.moc"
