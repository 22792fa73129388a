// terminalSafe(): every character a terminal would act on is escaped, in one unambiguous
// spelling; everything else (other scripts, emoji, quotes) is left as it is.
#include "base/TerminalText.h"

#include <QTest>

class TestTerminalText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyHazardIsEscaped()
    {
        // The whole BMP: exactly the chosen characters change, each into its escape.
        for (char32_t c = 0; c < 0x10000; ++c) {
            if (c >= 0xd800 && c <= 0xdfff)
                continue;
            const QString one(QChar(static_cast<char16_t>(c)));
            const QString shown = ts::terminalSafe(one);
            QString want = one;
            if (c == u'\\')
                want = QStringLiteral("\\\\");
            else if (c == u'\t')
                want = QStringLiteral("\\t");
            else if (c == u'\n')
                want = QStringLiteral("\\n");
            else if (c == u'\r')
                want = QStringLiteral("\\r");
            else if (c < 0x20 || c == 0x7f)
                want = QStringLiteral("\\x%1").arg(static_cast<uint>(c), 2, 16, QLatin1Char('0'));
            else if ((c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
                     (c >= 0x2066 && c <= 0x2069))
                want = QStringLiteral("\\u%1").arg(static_cast<uint>(c), 4, 16, QLatin1Char('0'));
            QVERIFY2(shown == want, qPrintable(QStringLiteral("U+%1 shown as %2")
                                                   .arg(static_cast<uint>(c), 4, 16, QLatin1Char('0'))
                                                   .arg(shown)));
        }
    }

    // Long names are checked eight characters at a time: a hazard at any place in a longer name,
    // first or after others, is escaped all the same (and a plain name of any length is kept).
    void aHazardAnywhereInALongNameIsEscaped()
    {
        const QString plain = QStringLiteral("model.layers.10.mlp.up_proj.weight~");
        QCOMPARE(ts::terminalSafe(plain), plain);
        for (const char16_t c : {u'\x1b', u'\\', u'\n', u'\x7f', u'\x85', u'\u202e', u'\u2069'}) {
            const QString spelled = ts::terminalSafe(QString(QChar(c)));
            for (qsizetype at = 0; at <= plain.size(); ++at) {
                for (qsizetype length : {at, plain.size()}) {
                    QString name = plain.left(length);
                    name.insert(at, QChar(c));
                    QString want = plain.left(length);
                    want.insert(at, spelled);
                    QCOMPARE(ts::terminalSafe(name), want);
                    if (c != u'\n')
                        QCOMPARE(ts::terminalSafeLines(name), c == u'\\' ? name : want);
                }
            }
        }
    }

    // Columns as a terminal lays them out (checked against xterm and GNOME Terminal by eye): what a
    // table pads by. A CJK name padded by its UTF-16 length pushed every cell after it out of line.
    void widthsAreTerminalColumns_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qsizetype>("columns");
        QTest::newRow("ascii") << QStringLiteral("model.layers.0.weight") << qsizetype(21);
        QTest::newRow("latin accents, precomposed") << QStringLiteral("\u00e9t\u00e9") << qsizetype(3);
        QTest::newRow("combining acute") << QStringLiteral("e\u0301te\u0301") << qsizetype(3);
        QTest::newRow("chinese") << QStringLiteral("\u6a21\u578b.\u6743\u91cd") << qsizetype(9);
        QTest::newRow("japanese kana") << QStringLiteral("\u30e2\u30c7\u30eb") << qsizetype(6);
        QTest::newRow("hangul syllables") << QStringLiteral("\ubaa8\ub378") << qsizetype(4);
        QTest::newRow("fullwidth latin") << QStringLiteral("\uff21\uff22") << qsizetype(4);
        QTest::newRow("emoji outside the BMP") << QStringLiteral("w\U0001F600") << qsizetype(3);
        QTest::newRow("CJK extension B outside the BMP") << QStringLiteral("\U00020000") << qsizetype(2);
        QTest::newRow("gothic outside the BMP, narrow") << QStringLiteral("\U00010330") << qsizetype(1);
        QTest::newRow("zero-width joiner") << QStringLiteral("a\u200db") << qsizetype(2);
        QTest::newRow("cyrillic and greek") << QStringLiteral("\u0432\u0435\u0441\u03b1") << qsizetype(4);
        QTest::newRow("escaped control, as shown")
            << ts::terminalSafe(QStringLiteral("a\x1b")) << qsizetype(5);
    }

    void widthsAreTerminalColumns()
    {
        QFETCH(QString, text);
        QFETCH(qsizetype, columns);
        QCOMPARE(ts::terminalWidth(text), columns);
    }

    void valuesInContext()
    {
        QCOMPARE(ts::terminalSafe(u"layer.0\x1b]0;title\a.weight"),
                 QStringLiteral("layer.0\\x1b]0;title\\x07.weight"));
        QCOMPARE(ts::terminalSafe(u"a\r\nb"), QStringLiteral("a\\r\\nb"));
        // A name that spells an escape is shown with its backslash doubled: it cannot pass for one.
        QCOMPARE(ts::terminalSafe(u"a\\x1bb"), QStringLiteral("a\\\\x1bb"));
        QCOMPARE(ts::terminalSafe(u"plain ünïcødé 模型 😀 \"q\""),
                 QStringLiteral("plain ünïcødé 模型 😀 \"q\""));
        QCOMPARE(ts::terminalSafe(u"rlo\u202egnp.exe"), QStringLiteral("rlo\\u202egnp.exe"));
        QCOMPARE(ts::terminalSafe(u""), QString());
    }

    void composedTextKeepsItsLines()
    {
        // Line feeds of the layout stay, backslashes of escaped values are not doubled again.
        QCOMPARE(ts::terminalSafeLines(u"a\\x1b\nb\x1b[2J\tc\u202e"),
                 QStringLiteral("a\\x1b\nb\\x1b[2J\\tc\\u202e"));
        QCOMPARE(ts::terminalSafeLines(ts::terminalSafe(u"x\ny")), ts::terminalSafe(u"x\ny"));
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminal_text.moc"
