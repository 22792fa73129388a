// The heatmap keeps what it exists to show: an outlier or a non-finite element anywhere in a plane,
// edges and corners included, marks its cell whatever the pooling; a zoomed region is read at full
// resolution; pooling and hover agree on which source rows a cell holds.
#include "io/MemorySource.h"
#include "view/Heatmap.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

using namespace ts;

namespace {

struct Plane {
    std::vector<float> values;
    TensorInfo info;
    TensorLocation location;
};

// rows x cols small values (N(0, 0.02), as trained weights), then the caller plants.
std::vector<float> smallValues(std::uint64_t rows, std::uint64_t cols)
{
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 0.02f);
    std::vector<float> v(rows * cols);
    for (float& x : v)
        x = normal(rng);
    return v;
}

Plane makePlane(std::vector<float> values, std::uint64_t rows, std::uint64_t cols)
{
    Plane p;
    p.values = std::move(values);
    const QByteArray bytes(reinterpret_cast<const char*>(p.values.data()),
                           static_cast<qsizetype>(p.values.size() * sizeof(float)));
    p.info = TensorInfo{
        QStringLiteral("w"), Dtype::F32, {rows, cols}, 0, static_cast<std::uint64_t>(bytes.size())};
    p.location =
        TensorLocation{std::make_shared<MemorySource>(bytes), 0, static_cast<std::uint64_t>(bytes.size())};
    return p;
}

HeatmapGrid build(const Plane& p, Pooling pooling, int maxCells = 256, const HeatmapRegion& region = {})
{
    Result<HeatmapGrid> grid = buildHeatmap(p.location, p.info, PlaneSpec{}, pooling, maxCells, {}, region);
    if (!grid)
        qFatal("%s", qPrintable(grid.error().toString()));
    return std::move(grid.value());
}

} // namespace

class TestHeatmapMarks : public QObject {
    Q_OBJECT

private slots:
    void outlierAtEveryCornerMarksItsCell_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("pooling");
        for (const auto& [r, c] : {std::pair{256, 512}, std::pair{1024, 4096}}) {
            for (const Pooling pooling : {Pooling::MaxAbs, Pooling::Mean})
                QTest::addRow("%dx%d %s", r, c, pooling == Pooling::Mean ? "mean" : "max")
                    << r << c << static_cast<int>(pooling);
        }
    }

    void outlierAtEveryCornerMarksItsCell()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, pooling);
        const std::uint64_t R = static_cast<std::uint64_t>(rows), C = static_cast<std::uint64_t>(cols);
        using Cell = std::pair<std::uint64_t, std::uint64_t>;
        for (const auto& [r, c] :
             {Cell{0, 0}, Cell{0, C - 1}, Cell{R - 1, 0}, Cell{R - 1, C - 1}, Cell{R / 2 + 3, C / 3 + 1}}) {
            std::vector<float> v = smallValues(R, C);
            v[r * C + c] = 50.0f;
            const HeatmapGrid g = build(makePlane(std::move(v), R, C), static_cast<Pooling>(pooling));
            const int cr = HeatmapGrid::cellOf(r, g.rows, g.srcRows);
            const int cc = HeatmapGrid::cellOf(c, g.cols, g.srcCols);
            QVERIFY2(g.markAt(cr, cc) & MarkOutlier, qPrintable(QStringLiteral("(%1, %2)").arg(r).arg(c)));
            QCOMPARE(g.outlierCells, std::uint64_t(1));
            QCOMPARE(g.high[static_cast<std::size_t>(cr) * g.cols + cc], 50.0);
            // The cell's rows and columns hold the planted element.
            QVERIFY(g.planeRowBegin(cr) <= r && r < g.planeRowEnd(cr));
            QVERIFY(g.planeColBegin(cc) <= c && c < g.planeColEnd(cc));
        }
    }

    void trainedLookingValuesMarkNothing()
    {
        // No outlier in plain Gaussian weights: the threshold is the scan's (z > 100).
        const HeatmapGrid g = build(makePlane(smallValues(512, 512), 512, 512), Pooling::MaxAbs);
        QCOMPARE(g.outlierCells, std::uint64_t(0));
        for (const std::uint8_t m : g.marks)
            QCOMPARE(m, std::uint8_t(0));
    }

    void nonFiniteElementsMarkTheirCellsByKind()
    {
        std::vector<float> v = smallValues(256, 512);
        v[0] = std::numeric_limits<float>::quiet_NaN();
        v[255 * 512 + 511] = std::numeric_limits<float>::infinity();
        v[100 * 512 + 7] = -std::numeric_limits<float>::infinity();
        v[100 * 512 + 6] = -std::numeric_limits<float>::infinity();
        const HeatmapGrid g = build(makePlane(std::move(v), 256, 512), Pooling::Mean, 64);
        QCOMPARE(g.nanCount, std::uint64_t(1));
        QCOMPARE(g.posInfCount, std::uint64_t(1));
        QCOMPARE(g.negInfCount, std::uint64_t(2));
        QCOMPARE(g.markAt(0, 0), std::uint8_t(MarkNaN));
        QCOMPARE(g.markAt(63, 63), std::uint8_t(MarkPosInf));
        QCOMPARE(g.markAt(HeatmapGrid::cellOf(100, 64, 256), HeatmapGrid::cellOf(7, 64, 512)),
                 std::uint8_t(MarkNegInf));
        int marked = 0;
        for (const std::uint8_t m : g.marks)
            marked += m != 0;
        QCOMPARE(marked, 3);
        // The pooled values stay finite: the colour scale is not wrecked.
        QVERIFY(std::isfinite(g.absmax) && g.absmax < 1);
    }

    void zoomedRegionIsReadAtFullResolution()
    {
        std::vector<float> v = smallValues(1024, 4096);
        v[700 * 4096 + 3000] = 9.0f;
        const Plane p = makePlane(v, 1024, 4096);
        const HeatmapGrid g = build(p, Pooling::MaxAbs, 256, HeatmapRegion{690, 40, 2990, 30});
        QCOMPARE(g.rows, 40);
        QCOMPARE(g.cols, 30);
        QCOMPARE(g.planeRows, std::uint64_t(1024));
        QCOMPARE(g.rowBegin, std::uint64_t(690));
        for (int r = 0; r < g.rows; ++r) {
            for (int c = 0; c < g.cols; ++c)
                QCOMPARE(g.at(r, c), double(v[(690 + r) * 4096 + 2990 + c]));
        }
        QVERIFY(g.markAt(10, 10) & MarkOutlier);
        // A region past the plane's end is clamped, not read out of bounds.
        const HeatmapGrid edge = build(p, Pooling::MaxAbs, 256, HeatmapRegion{1020, 100, 4090, 100});
        QCOMPARE(edge.rows, 4);
        QCOMPARE(edge.cols, 6);
        QCOMPARE(edge.at(3, 5), double(v[1023 * 4096 + 4095]));
    }

    void cellOfInvertsSourceBegin()
    {
        for (const std::uint64_t src : std::vector<std::uint64_t>{1, 7, 255, 256, 257, 512, 4096, 1000003}) {
            for (const int cells : {1, 3, 64, 255, 256}) {
                if (static_cast<std::uint64_t>(cells) > src)
                    continue;
                for (int k = 0; k < cells; ++k) {
                    const std::uint64_t first = HeatmapGrid::sourceBegin(k, cells, src);
                    const std::uint64_t last = HeatmapGrid::sourceBegin(k + 1, cells, src);
                    QVERIFY(first < last); // every cell holds a row: rows 0 and src-1 are reachable
                    QCOMPARE(HeatmapGrid::cellOf(first, cells, src), k);
                    QCOMPARE(HeatmapGrid::cellOf(last - 1, cells, src), k);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestHeatmapMarks)
#include "tst_heatmap_marks.moc"
