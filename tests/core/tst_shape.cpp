// Shape keeps one or two dims inside the object and longer shapes on the heap; every path must
// read, copy, move and compare like the std::vector it replaced.
#include "format/Shape.h"

#include <QTest>

#include <numeric>
#include <utility>
#include <vector>

using namespace ts;

namespace {

std::vector<std::uint64_t> iota(std::size_t n)
{
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), 1);
    return v;
}

} // namespace

class TestShape : public QObject {
    Q_OBJECT
private slots:
    void holdsEveryRankItWasGiven()
    {
        for (std::size_t rank : {0, 1, 2, 3, 4, 7, 8, 9, 1000}) {
            const auto dims = iota(rank);
            const Shape built(dims);
            Shape pushed;
            for (const auto d : dims)
                pushed.push_back(d);
            QCOMPARE(built.size(), rank);
            QCOMPARE(pushed.size(), rank);
            QCOMPARE(built.empty(), rank == 0);
            QCOMPARE(built.toVector(), dims);
            QCOMPARE(pushed.toVector(), dims);
            QVERIFY(built == pushed);
            if (rank > 0) {
                QCOMPARE(built.front(), std::uint64_t(1));
                QCOMPARE(built.back(), std::uint64_t(rank));
                QCOMPARE(built[rank - 1], std::uint64_t(rank));
            }
        }
    }

    void copiesAndMovesKeepTheDims()
    {
        for (std::size_t rank : {1, 2, 3, 50}) {
            const Shape original(iota(rank));
            Shape copy = original;
            QVERIFY(copy == original);
            copy[0] = 99; // a copy owns its dims, inline or on the heap
            QCOMPARE(original[0], std::uint64_t(1));

            Shape moved = std::move(copy);
            QCOMPARE(moved[0], std::uint64_t(99));
            QCOMPARE(moved.size(), rank);
            QVERIFY(copy.empty()); // NOLINT(bugprone-use-after-move): moved-from is specified empty

            Shape assigned{5, 6, 7, 8};
            assigned = original;
            QVERIFY(assigned == original);
            assigned = Shape{3};
            QCOMPARE(assigned.toVector(), std::vector<std::uint64_t>{3});
            Shape& self = assigned;
            assigned = self;
            QCOMPARE(assigned.toVector(), std::vector<std::uint64_t>{3});
        }
    }

    void reserveThenPushKeepsWhatIsThere()
    {
        Shape s{4, 5};
        s.reserve(10);
        QCOMPARE(s.toVector(), (std::vector<std::uint64_t>{4, 5}));
        for (std::uint64_t d = 6; d < 20; ++d)
            s.push_back(d);
        QCOMPARE(s.size(), std::size_t(16));
        QCOMPARE(s.back(), std::uint64_t(19));
        s.clear();
        QVERIFY(s.empty());
        s.push_back(1);
        QCOMPARE(s.toVector(), std::vector<std::uint64_t>{1});
    }

    void ordersAsAVectorDoes()
    {
        const std::vector<std::vector<std::uint64_t>> shapes = {
            {}, {0}, {1}, {1, 0}, {1, 2}, {1, 2, 3}, {2}, {2, 1, 1, 1}, {4096, 4096}};
        for (const auto& a : shapes) {
            for (const auto& b : shapes) {
                QCOMPARE(Shape(a) < Shape(b), a < b);
                QCOMPARE(Shape(a) == Shape(b), a == b);
            }
        }
    }

    void takesARunOfDims()
    {
        const std::uint64_t dims[] = {2, 3, 4};
        const Shape s(dims, 3);
        QCOMPARE(s.toVector(), (std::vector<std::uint64_t>{2, 3, 4}));
        QVERIFY(Shape(dims, 0).empty());
    }

    void staysThreeWords()
    {
        // The point of the type: a tensor's shape costs no more than the vector header did, and
        // no heap at all for ranks 1 and 2.
        QCOMPARE(sizeof(Shape), 3 * sizeof(void*));
    }
};

QTEST_APPLESS_MAIN(TestShape)
#include "tst_shape.moc"
