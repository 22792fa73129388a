// The core's bounded texts: formatShape and elideText (what every view shows of a shape or a
// name), and isJsonText, which classifies metadata values without building a DOM and must agree
// with Qt's parser, the one the metadata editor checks with.
#include "base/Format.h"
#include "format/JsonSyntax.h"
#include "format/Shape.h"
#include "format/TensorInfo.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QTest>

using namespace ts;

class TestTextBounds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shapesUpToTheLimitAreWhole()
    {
        QCOMPARE(formatShape({}), QStringLiteral("[]"));
        QCOMPARE(formatShape(Shape{4096, 11008}), QStringLiteral("[4096, 11008]"));
        const std::vector<std::uint64_t> limit(kShapeDimsShown, 7);
        QCOMPARE(formatShape(limit), QStringLiteral("[") +
                                         QStringLiteral("7, ").repeated(kShapeDimsShown - 1) +
                                         QStringLiteral("7]"));
    }

    void longerShapesKeepTheirEndsAndStateTheRank()
    {
        std::vector<std::uint64_t> shape(5000000, 1);
        shape[0] = 2;
        shape[1] = 3;
        shape[shape.size() - 2] = 4096;
        shape.back() = 11008;
        const QString text = formatShape(shape);
        QVERIFY2(text.startsWith(QStringLiteral("[2, 3, 1, ")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral(", \u2026, 4096, 11008] (5,000,000 dims)")), qPrintable(text));
        QVERIFY(text.size() < 150);
        // TensorInfo::shapeString is the same text: error messages and the CLI's tables are bounded too.
        QCOMPARE((TensorInfo{QStringLiteral("t"), Dtype::U8, shape, 0, 0}.shapeString()), text);
    }

    void elideCutsAndCounts()
    {
        QCOMPARE(elideText(QStringLiteral("short"), 10), QStringLiteral("short"));
        QCOMPARE(elideText(QStringLiteral("abcdefghij"), 4),
                 QStringLiteral("abcd\u2026 (6 more characters)"));
        // Never half a surrogate pair: U+1F600 is two UTF-16 units.
        const QString faces = QString::fromUtf8("\xF0\x9F\x98\x80").repeated(4);
        const QString cut = elideText(faces, 3);
        QVERIFY2(cut.startsWith(QString::fromUtf8("\xF0\x9F\x98\x80") + QChar(0x2026)), qPrintable(cut));
        QVERIFY(cut.endsWith(QStringLiteral("(6 more characters)"))); // UTF-16 units, as QString counts
    }

    void jsonTextAgreesWithQt_data()
    {
        QTest::addColumn<QString>("text");
        // Objects and arrays only: Qt refuses a scalar at the top, and the window asks about
        // containers alone. Not here: "[1.]" and "[.5]", which Qt takes and RFC 8259 does not.
        const char* samples[] = {
            "{}",
            "[]",
            " { \"a\" : [1, -2.5e+3, true, false, null, \"x\\\"y\\u00e9\"] } ",
            "[[[]],{}]",
            "{\"a\":{\"b\":{}}}",
            "[0, -0, 0.5, 1E9, 1e-9, 18446744073709551616, 1.7976931348623157e308]",
            "[\"a\nb\ttab\"]",
            "[\"\\x\"]",
            "[\"\\uD800\"]",
            "[1] ",
            // Broken ones.
            "{",
            "[",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "[01]",
            "[-01]",
            "[-]",
            "[1e]",
            "[1E+]",
            "[\"\\u12g4\"]",
            "[\"\\u12\"]",
            "[\"\\\"]",
            "[1] [2]",
            "[1]x",
            "[tru]",
            "[truex]",
            "[nul]",
            "[1e400]",
            "[-1e400]",
            "[1e-400]",
            "[1.8e308]",
            "{\"a\":1 \"b\":2}",
            "[1 2]",
            "{\"a\" 1}",
            "[\"a\"x]",
            "]",
            "}",
            "[}",
            "{]",
            "[\"unterminated]",
        };
        for (const char* s : samples)
            QTest::newRow(s) << QString::fromUtf8(s);
        const QString nested =
            QStringLiteral("[").repeated(kQtJsonDepthLimit) + QStringLiteral("]").repeated(kQtJsonDepthLimit);
        QTest::newRow("1024 deep") << nested;
        QTest::newRow("1025 deep") << QLatin1Char('[') + nested + QLatin1Char(']');
        QTest::newRow("1025 deep, objects") << QStringLiteral("{\"a\":").repeated(kQtJsonDepthLimit + 1) +
                                                   QStringLiteral("1") +
                                                   QStringLiteral("}").repeated(kQtJsonDepthLimit + 1);
    }

    void jsonTextAgreesWithQt()
    {
        QFETCH(QString, text);
        QJsonParseError error{};
        QJsonDocument::fromJson(text.toUtf8(), &error);
        QCOMPARE(isJsonText(text), error.error == QJsonParseError::NoError);
    }

    void scalarsAreJsonText()
    {
        for (const char* s : {"\"string\"", "42", "-0.5e-3", "true", "false", "null"})
            QVERIFY2(isJsonText(QString::fromUtf8(s)), s);
        QVERIFY(!isJsonText(QString()));
        QVERIFY(!isJsonText(QStringLiteral("  ")));
    }

    // A value of 40 MB is classified in one pass: nothing is built, so nothing can grow.
    void deepAndLongWithoutADom()
    {
        const QString unit = QStringLiteral("[").repeated(1000) + QStringLiteral("]").repeated(1000);
        QString text =
            QStringLiteral("[") + QString(unit + QLatin1Char(',')).repeated(20000) + unit + QLatin1Char(']');
        QVERIFY(isJsonText(text));
        text.chop(1);
        QVERIFY(!isJsonText(text));
        QVERIFY(!isJsonText(QStringLiteral("[").repeated(1000000)));
    }
};

QTEST_GUILESS_MAIN(TestTextBounds)
#include "tst_text_bounds.moc"
