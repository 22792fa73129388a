// The NonCanonicalOrder note: whether a file's buffer is in the reference writer's order (dtype
// descending, then name) and, when not, which tensor is the first out of place and where the
// writer would have put it. validateLayout finds it in one pass; this test plans the whole order
// the slow, obvious way (sort, then walk) and demands the same note on thousands of random
// layouts, zero-size tensors that share an offset included.
#include "format/LayoutValidator.h"
#include "format/WriterOrder.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <numeric>

using namespace ts;

namespace {

// The note validateLayout gave, or an empty string.
QString orderNote(const Header& header)
{
    for (const Diagnostic& d : header.warnings) {
        if (d.code == QLatin1String("NonCanonicalOrder"))
            return d.message + QStringLiteral(" @") + QString::number(d.offset.value_or(0));
    }
    return {};
}

// The note as the writer's plan gives it: every tensor sorted by writer order, laid end to end,
// the first whose planned start differs from where it is.
QString plannedNote(const Header& header)
{
    std::vector<TensorInfo> planned = header.tensors;
    std::stable_sort(planned.begin(), planned.end(),
                     [](const TensorInfo& a, const TensorInfo& b) { return writerOrderLess(a, b); });
    std::uint64_t at = 0;
    for (const TensorInfo& t : planned) {
        if (t.begin != at) {
            return QStringLiteral("tensors are not in the reference writer's order (dtype descending, then "
                                  "name): \"%1\" would start at data byte %2 but starts at %3; the file was "
                                  "not written by the reference writer @%4")
                .arg(t.name)
                .arg(at)
                .arg(t.begin)
                .arg(header.dataOffset() + t.begin);
        }
        at += t.byteSize();
    }
    return {};
}

// n tensors of random dtype and name (a few letters, so names share prefixes), a third of them
// empty, laid out in a random order; header length 8 so nothing else is noted.
Header randomLayout(QRandomGenerator& random, int n)
{
    static const Dtype dtypes[] = {Dtype::F32, Dtype::BF16, Dtype::F16, Dtype::U8};
    Header header;
    header.headerLength = 8;
    QStringList names;
    while (names.size() < n) {
        QString name;
        const int length = 1 + random.bounded(3);
        for (int i = 0; i < length; ++i)
            name += QLatin1Char(static_cast<char>('a' + random.bounded(3)));
        if (!names.contains(name))
            names << name;
    }
    for (const QString& name : names) {
        TensorInfo t;
        t.name = name;
        t.dtype = dtypes[random.bounded(4)];
        t.shape = {random.bounded(3) == 0 ? 0u : 1u + random.bounded(3)};
        header.tensors.push_back(t);
    }
    std::vector<std::size_t> order(header.tensors.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    // Sometimes the writer's own order, so the "in order" answer is tried as often as the others.
    if (random.bounded(4) == 0) {
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return writerOrderLess(header.tensors[a], header.tensors[b]);
        });
    } else {
        std::shuffle(order.begin(), order.end(), std::mt19937(random.generate()));
    }
    std::uint64_t offset = 0;
    for (const std::size_t i : order) {
        TensorInfo& t = header.tensors[i];
        t.begin = offset;
        t.end = offset + t.shape[0] * static_cast<std::uint64_t>(dtypeBits(t.dtype) / 8);
        offset = t.end;
    }
    return header;
}

} // namespace

class TestWriterOrder : public QObject {
    Q_OBJECT

private slots:
    void theWritersOrderIsNotNoted()
    {
        Header header;
        header.headerLength = 8;
        // BF16 before F32 would be wrong: dtype descending in the reference's enum order.
        header.tensors = {TensorInfo{QStringLiteral("b"), Dtype::F32, {2}, 0, 8},
                          TensorInfo{QStringLiteral("c"), Dtype::F32, {1}, 8, 12},
                          TensorInfo{QStringLiteral("a"), Dtype::BF16, {2}, 12, 16}};
        const bool f32First = writerOrderLess(header.tensors[0], header.tensors[2]);
        QVERIFY(f32First);
        QVERIFY(validateLayout(header, 8 + 8 + 16, QStringLiteral("ordered.safetensors")).ok());
        QCOMPARE(orderNote(header), QString());
    }

    void theFirstTensorOutOfPlaceIsNamed()
    {
        Header header;
        header.headerLength = 8;
        header.tensors = {TensorInfo{QStringLiteral("b"), Dtype::F32, {1}, 0, 4},
                          TensorInfo{QStringLiteral("a"), Dtype::F32, {1}, 4, 8}};
        QVERIFY(validateLayout(header, 8 + 8 + 8, QStringLiteral("swapped.safetensors")).ok());
        const QString note = orderNote(header);
        QVERIFY2(note.contains(QStringLiteral("\"a\" would start at data byte 0 but starts at 4")),
                 qPrintable(note));
    }

    void oneAnswerWithTheWritersPlan()
    {
        QRandomGenerator random(2112);
        int noted = 0;
        for (int round = 0; round < 4000; ++round) {
            Header header = randomLayout(random, 1 + random.bounded(9));
            const std::uint64_t size =
                8 + header.headerLength +
                std::accumulate(header.tensors.begin(), header.tensors.end(), std::uint64_t(0),
                                [](std::uint64_t s, const TensorInfo& t) { return s + t.byteSize(); });
            QVERIFY(validateLayout(header, size, QStringLiteral("random.safetensors")).ok());
            const QString expected = plannedNote(header);
            QCOMPARE(orderNote(header), expected);
            noted += !expected.isEmpty();
        }
        // Both answers were asked for many times.
        QVERIFY2(noted > 1000 && noted < 3900, qPrintable(QString::number(noted)));
    }
};

QTEST_GUILESS_MAIN(TestWriterOrder)
#include "tst_writer_order.moc"
