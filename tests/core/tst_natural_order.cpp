// The one name order every view uses (core/base/NaturalOrder.h), on the names real models have.
#include "base/NaturalOrder.h"

#include <QStringList>
#include <QTest>

#include <algorithm>

using namespace ts;

class TestNaturalOrder : public QObject {
    Q_OBJECT

private slots:
    void sortsMixedNamesAsAPersonWould()
    {
        QStringList names = {
            QStringLiteral("lora.10.up"),          QStringLiteral("Conv2d_10.weight"),
            QStringLiteral("model.layers.10.mlp"), QStringLiteral("lora.2.up"),
            QStringLiteral("Conv2d_1.weight"),     QStringLiteral("model.layers.9.mlp"),
            QStringLiteral("Conv2d_2.weight"),     QStringLiteral("model.layers.1.mlp"),
            QStringLiteral("model.embed"),         QStringLiteral("model.layers.0.mlp"),
            QStringLiteral("lora.1.up"),           QStringLiteral("conv2d_3.weight"),
        };
        std::sort(names.begin(), names.end(),
                  [](const QString& a, const QString& b) { return naturalLess(a, b); });
        const QStringList expected = {
            QStringLiteral("Conv2d_1.weight"),    QStringLiteral("Conv2d_2.weight"),
            QStringLiteral("conv2d_3.weight"),    QStringLiteral("Conv2d_10.weight"),
            QStringLiteral("lora.1.up"),          QStringLiteral("lora.2.up"),
            QStringLiteral("lora.10.up"),         QStringLiteral("model.embed"),
            QStringLiteral("model.layers.0.mlp"), QStringLiteral("model.layers.1.mlp"),
            QStringLiteral("model.layers.9.mlp"), QStringLiteral("model.layers.10.mlp"),
        };
        QCOMPARE(names, expected);
    }

    void digitRunsOfAnyLengthAndLeadingZeros()
    {
        const QString huge = QStringLiteral("x") + QString(60, QLatin1Char('9'));
        const QString bigger = QStringLiteral("x1") + QString(60, QLatin1Char('0'));
        QVERIFY(naturalLess(huge, bigger)); // no overflow: 61 digits against 60
        QVERIFY(naturalLess(QStringLiteral("a7"), QStringLiteral("a007")));
        QVERIFY(naturalLess(QStringLiteral("a007"), QStringLiteral("a8")));
        QVERIFY(naturalLess(QStringLiteral("a007b"), QStringLiteral("a7c")));
        QCOMPARE(naturalCompare(QStringLiteral("a7"), QStringLiteral("a7")), 0);
    }

    void digitsBeforeTextAndPrefixesFirst()
    {
        QVERIFY(naturalLess(QStringLiteral("0"), QStringLiteral("bias")));
        QVERIFY(naturalLess(QStringLiteral("block"), QStringLiteral("block.0")));
        QVERIFY(naturalLess(QStringLiteral(""), QStringLiteral("a")));
    }

    void caseOnlyBreaksTies()
    {
        QVERIFY(naturalLess(QStringLiteral("Alpha"), QStringLiteral("beta")));
        QVERIFY(naturalLess(QStringLiteral("alpha"), QStringLiteral("Beta")));
        QVERIFY(naturalCompare(QStringLiteral("Norm"), QStringLiteral("norm")) != 0);
        QCOMPARE(naturalCompare(QStringLiteral("Norm"), QStringLiteral("norm")),
                 -naturalCompare(QStringLiteral("norm"), QStringLiteral("Norm")));
    }

    // One character against another, every pair from ASCII and a few beyond: letters compare by
    // their Unicode case folding (QChar::toCaseFolded, computed here), case breaks ties.
    void charactersCompareByTheirCaseFolding()
    {
        QList<QChar> chars;
        for (char16_t u = 1; u < 128; ++u)
            if (u < u'0' || u > u'9')
                chars << QChar(u);
        for (char16_t u :
             {u'\u00C4', u'\u00E4', u'\u00DF', u'\u0130', u'\u03A3', u'\u03C3', u'\u212A', u'\uFF21'})
            chars << QChar(u);
        for (QChar a : chars) {
            for (QChar b : chars) {
                const char16_t fa = a.toCaseFolded().unicode(), fb = b.toCaseFolded().unicode();
                const int expected =
                    fa != fb ? (fa < fb ? -1 : 1) : (a == b ? 0 : (a.unicode() < b.unicode() ? -1 : 1));
                QCOMPARE(naturalCompare(QString(a), QString(b)), expected);
            }
        }
    }

    void orderIsConsistentOnAllPairs()
    {
        const QStringList names = {QStringLiteral("a1"),  QStringLiteral("a01"), QStringLiteral("A1"),
                                   QStringLiteral("a1b"), QStringLiteral("a10"), QStringLiteral("a"),
                                   QStringLiteral("1"),   QStringLiteral("01"),  QStringLiteral("b"),
                                   QStringLiteral("B2"),  QStringLiteral("b02"), QStringLiteral("")};
        for (const QString& x : names) {
            QCOMPARE(naturalCompare(x, x), 0);
            for (const QString& y : names) {
                QCOMPARE(naturalCompare(x, y), -naturalCompare(y, x));
                for (const QString& z : names) {
                    if (naturalLess(x, y) && naturalLess(y, z))
                        QVERIFY2(naturalLess(x, z),
                                 qPrintable(x + QLatin1Char(' ') + y + QLatin1Char(' ') + z));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestNaturalOrder)
#include "tst_natural_order.moc"
