// The plane a heatmap or the value grid shows of an N-D tensor, and the heatmap built from it, at
// the edges: tensors with no elements.
#include "format/Shape.h"
#include "io/MemorySource.h"
#include "view/Heatmap.h"
#include "view/TensorPlane.h"

#include <QTest>

#include <memory>
#include <vector>

using namespace ts;

class TestTensorPlane : public QObject {
    Q_OBJECT

private slots:
    void emptyFixedAxisLeavesNoCells()
    {
        // Found by fuzz_scan: [1, 3, 0] shown as axis 1 by axis 0 made a 3 x 1 plane of cells that
        // do not exist, and the heatmap failed reading element 0 of a tensor of 0 elements.
        const std::vector<std::uint64_t> shape = {1, 3, 0};
        PlaneSpec spec;
        spec.rowAxis = 1;
        spec.colAxis = 0;
        const TensorPlane plane = makePlane(shape, spec);
        QCOMPARE(plane.rows * plane.cols, std::uint64_t(0));

        const TensorInfo info{QStringLiteral("empty"), Dtype::I64, shape, 0, 0};
        const TensorLocation location{std::make_shared<MemorySource>(QByteArray()), 0, 0};
        Result<HeatmapGrid> grid = buildHeatmap(location, info, spec, Pooling::MaxAbs, 64);
        QVERIFY2(grid.ok(), grid.ok() ? "" : qPrintable(grid.error().toString()));
        QVERIFY(grid->values.empty());
        QCOMPARE(grid->nonFinite, std::uint64_t(0));
    }

    void emptyShownAxisKeepsTheOther()
    {
        // A shown axis of length 0 is an empty plane already; the other axis keeps its length.
        const TensorPlane plane = makePlane(Shape{4, 0}, PlaneSpec{});
        QCOMPARE(plane.rows, std::uint64_t(4));
        QCOMPARE(plane.cols, std::uint64_t(0));
        const TensorPlane vector = makePlane(Shape{0}, PlaneSpec{});
        QCOMPARE(vector.rows, std::uint64_t(1));
        QCOMPARE(vector.cols, std::uint64_t(0));
    }

    void heatmapOfAnyPlaneHoldsItsElements_data()
    {
        QTest::addColumn<std::vector<std::uint64_t>>("shape");
        QTest::addColumn<int>("rowAxis");
        QTest::addColumn<int>("colAxis");
        // Rows interleave in memory (read in one band), rows apart (a span per row), columns far
        // apart (element by element), and the plain matrix.
        QTest::newRow("transposed") << std::vector<std::uint64_t>{2, 5, 7} << 2 << 0;
        QTest::newRow("rows apart") << std::vector<std::uint64_t>{4, 3, 5} << 0 << 2;
        QTest::newRow("columns far apart") << std::vector<std::uint64_t>{4, 3, 100} << 0 << 1;
        QTest::newRow("matrix") << std::vector<std::uint64_t>{6, 9} << 0 << 1;
    }

    void heatmapOfAnyPlaneHoldsItsElements()
    {
        // Found by fuzz_scan: a transposed plane read each row's whole span, the same elements
        // once per row (200 million decodes for a [2, 5, 6553] tensor). However the rows are read,
        // an unpooled heatmap holds exactly the plane's elements.
        QFETCH(std::vector<std::uint64_t>, shape);
        QFETCH(int, rowAxis);
        QFETCH(int, colAxis);
        std::uint64_t n = 1;
        for (std::uint64_t d : shape)
            n *= d;
        std::vector<float> values(n);
        for (std::uint64_t i = 0; i < n; ++i)
            values[i] = static_cast<float>(i) * (i % 2 ? -1.0f : 1.0f);
        const QByteArray bytes(reinterpret_cast<const char*>(values.data()), static_cast<qsizetype>(n * 4));
        const TensorInfo info{QStringLiteral("t"), Dtype::F32, shape, 0, n * 4};
        const TensorLocation location{std::make_shared<MemorySource>(bytes), 0, n * 4};
        PlaneSpec spec;
        spec.rowAxis = rowAxis;
        spec.colAxis = colAxis;
        spec.fixed = std::vector<std::uint64_t>(shape.size(), 1);
        const TensorPlane plane = makePlane(shape, spec);
        Result<HeatmapGrid> grid = buildHeatmap(location, info, spec, Pooling::MaxAbs, 1000);
        QVERIFY2(grid.ok(), grid.ok() ? "" : qPrintable(grid.error().toString()));
        QCOMPARE(std::uint64_t(grid->rows), plane.rows);
        QCOMPARE(std::uint64_t(grid->cols), plane.cols);
        for (std::uint64_t r = 0; r < plane.rows; ++r) {
            for (std::uint64_t c = 0; c < plane.cols; ++c)
                QCOMPARE(grid->at(static_cast<int>(r), static_cast<int>(c)),
                         double(values[plane.flat(r, c)]));
        }
    }

    void meanCellStaysWithinItsBlock()
    {
        // Found by fuzz_scan: three 0.1 pooled into one cell summed to 0.30000000000000004, and the
        // mean 0.10000000000000002 was larger than every value in the plane.
        HeatmapPooler pooler(1, 3, 1, 1, Pooling::Mean);
        const double row[3] = {0.1, 0.1, 0.1};
        pooler.addRow(0, row);
        const HeatmapGrid grid = pooler.finish();
        QCOMPARE(grid.at(0, 0), 0.1);
        QCOMPARE(grid.absmax, 0.1);
    }

    void meanOfHugeValuesDoesNotOverflow()
    {
        HeatmapPooler pooler(1, 2, 1, 1, Pooling::Mean);
        const double row[2] = {1.7e308, 1.7e308};
        pooler.addRow(0, row);
        const HeatmapGrid grid = pooler.finish();
        QCOMPARE(grid.at(0, 0), 1.7e308);
    }

    void nonEmptyTensorIsUnchanged()
    {
        PlaneSpec spec;
        spec.rowAxis = 2;
        spec.colAxis = 0;
        spec.fixed = {0, 1, 0};
        const TensorPlane plane = makePlane(Shape{2, 3, 4}, spec);
        QCOMPARE(plane.rows, std::uint64_t(4));
        QCOMPARE(plane.cols, std::uint64_t(2));
        QCOMPARE(plane.base, std::uint64_t(4));
        QCOMPARE(plane.rowStride, std::uint64_t(1));
        QCOMPARE(plane.colStride, std::uint64_t(12));
    }
};

QTEST_GUILESS_MAIN(TestTensorPlane)
#include "tst_tensor_plane.moc"
