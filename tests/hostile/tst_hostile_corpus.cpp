// Every conformance file, and mutants of them (truncated at every header byte, bit flips in the
// length prefix), through the core parser and through `tensorscope-cli validate`, `info` and `scan`: a
// clear error or the right answer, never a crash or a hang.
#include "HostileSupport.h"

#include "format/HeaderParser.h"
#include "io/MemorySource.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace ts::test;

namespace {

struct Case {
    QString file;
    bool ok = false;
    QString error;
};

QList<Case> loadCases()
{
    QList<Case> cases;
    const QList<QByteArray> lines =
        readFile(conformanceDir() + QStringLiteral("/expected.jsonl")).split('\n');
    for (const QByteArray& line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        cases.append({o.value(QLatin1String("file")).toString(), o.value(QLatin1String("ok")).toBool(),
                      o.value(QLatin1String("error")).toString()});
    }
    return cases;
}

QString casePath(const QString& file)
{
    return conformanceDir() + QStringLiteral("/cases/") + file;
}

ts::Result<ts::Header> parse(const QByteArray& bytes)
{
    return ts::parseHeader(ts::MemorySource(bytes, QStringLiteral("mutant.safetensors")));
}

std::uint64_t prefixOf(const QByteArray& bytes)
{
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    return n;
}

// Truncation points: every byte of the prefix and header (a sample of 512 for huge headers), plus
// a few inside the data.
QList<qsizetype> truncationPoints(const QByteArray& bytes)
{
    QList<qsizetype> points;
    const qsizetype headerEnd = bytes.size() >= 8
                                    ? qsizetype(std::min<std::uint64_t>(8 + prefixOf(bytes), bytes.size()))
                                    : bytes.size();
    const qsizetype step = headerEnd > 4096 ? headerEnd / 512 : 1;
    for (qsizetype i = 0; i < headerEnd; i += step)
        points.append(i);
    for (qsizetype i = headerEnd; i < bytes.size();
         i += std::max<qsizetype>(1, (bytes.size() - headerEnd) / 8))
        points.append(i);
    return points;
}

} // namespace

class TestHostileCorpus : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_cases = loadCases();
        QVERIFY2(m_cases.size() >= 100, "the conformance corpus (tests/data/conformance) is missing");
        QVERIFY(m_tmp.isValid());
    }

    // The core's verdict matches the reference's for every conformance file.
    void coreVerdicts()
    {
        for (const Case& c : std::as_const(m_cases)) {
            auto r = parse(readFile(casePath(c.file)));
            QVERIFY2(r.ok() == c.ok, qPrintable(c.file));
            if (!c.ok)
                QCOMPARE(ts::errorCodeName(r.error().code), c.error);
        }
    }

    // A file cut short anywhere is an error of the right kind: HeaderTooSmall in the prefix,
    // InvalidHeaderLength in the header, MetadataIncompleteBuffer in the data.
    void coreTruncatedEverywhere()
    {
        int mutants = 0;
        for (const Case& c : std::as_const(m_cases)) {
            const QByteArray bytes = readFile(casePath(c.file));
            for (const qsizetype at : truncationPoints(bytes)) {
                auto r = parse(bytes.left(at));
                ++mutants;
                if (!c.ok)
                    continue; // an invalid file stays invalid; it must only not crash
                QVERIFY2(!r.ok(),
                         qPrintable(QStringLiteral("%1 cut at %2 was accepted").arg(c.file).arg(at)));
                const auto code = r.error().code;
                const auto expected = at < 8 ? ts::ErrorCode::HeaderTooSmall
                                      : std::uint64_t(at) < 8 + prefixOf(bytes)
                                          ? ts::ErrorCode::InvalidHeaderLength
                                          : ts::ErrorCode::MetadataIncompleteBuffer;
                QVERIFY2(
                    code == expected,
                    qPrintable(
                        QStringLiteral("%1 cut at %2: %3").arg(c.file).arg(at).arg(r.error().toString())));
            }
        }
        qInfo("%d truncated mutants parsed", mutants);
    }

    // Flipping any bit of the length prefix never yields a file that is accepted.
    void coreLengthPrefixBitFlips()
    {
        for (const Case& c : std::as_const(m_cases)) {
            const QByteArray bytes = readFile(casePath(c.file));
            if (bytes.size() < 8 || !c.ok)
                continue;
            for (int bit = 0; bit < 64; ++bit) {
                QByteArray m = bytes;
                m[bit / 8] = static_cast<char>(m[bit / 8] ^ (1 << (bit % 8)));
                auto r = parse(m);
                QVERIFY2(
                    !r.ok(),
                    qPrintable(
                        QStringLiteral("%1 with prefix bit %2 flipped was accepted").arg(c.file).arg(bit)));
            }
        }
    }

    // The CLI agrees with the reference on every conformance file: validate exits 0 or 1 (never
    // a crash), info exits 0 for valid files and 1 for invalid ones.
    void cliVerdicts()
    {
        long peak = 0;
        qint64 slowest = 0;
        for (const Case& c : std::as_const(m_cases)) {
            for (const char* command : {"validate", "info", "scan"}) {
                const ProcessRun run = runCli({QLatin1String(command), casePath(c.file)});
                if (c.ok && QLatin1String(command) == QLatin1String("scan")) {
                    // A valid file is scanned to the end: 0, or 1 when it holds NaN or Inf.
                    QVERIFY2(!run.timedOut && run.signal == 0 && (run.exitCode == 0 || run.exitCode == 1),
                             qPrintable(c.file + QLatin1Char(' ') + run.describe()));
                    QVERIFY2(run.out.contains("tensor"), qPrintable(run.describe()));
                    continue;
                }
                HOSTILE_EXPECT_EXIT(run, c.ok ? 0 : 1);
                if (!c.ok)
                    QVERIFY2(run.out.contains(c.error.toUtf8()) || run.err.contains(c.error.toUtf8()),
                             qPrintable(c.file + QLatin1Char(' ') + run.describe()));
                peak = std::max(peak, run.peakRssKb);
                slowest = std::max(slowest, run.elapsedMs);
            }
        }
        qInfo("conformance through the CLI: peak RSS %ld KiB, slowest run %lld ms", peak, slowest);
        if (!HOSTILE_SANITIZED)
            QVERIFY(peak < 200 * 1024);
    }

    // Mutants through the CLI: every truncation point and every prefix bit flip of a small valid
    // file with metadata and several dtypes, and of a file with a 10 000-byte name.
    void cliMutants_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("v_metadata_single") << QStringLiteral("v_metadata_single.safetensors");
        QTest::newRow("v_long_name") << QStringLiteral("v_long_name.safetensors");
    }
    void cliMutants()
    {
        QFETCH(QString, file);
        const QByteArray bytes = readFile(casePath(file));
        QVERIFY2(!bytes.isEmpty(), qPrintable(file));
        const QString path = m_tmp.filePath(QStringLiteral("mutant.safetensors"));
        QList<QByteArray> mutants;
        QList<qsizetype> points = truncationPoints(bytes);
        // At most ~250 truncations per file through the CLI: every byte of a small header.
        const qsizetype stride = std::max<qsizetype>(1, points.size() / 250);
        for (qsizetype i = 0; i < points.size(); i += stride)
            mutants.append(bytes.left(points[i]));
        for (int bit = 0; bit < 64; ++bit) {
            QByteArray m = bytes;
            m[bit / 8] = static_cast<char>(m[bit / 8] ^ (1 << (bit % 8)));
            mutants.append(m);
        }
        long peak = 0;
        for (const QByteArray& m : std::as_const(mutants)) {
            QVERIFY(writeFile(path, m));
            const ProcessRun run = runCli({QStringLiteral("validate"), QStringLiteral("--json"), path});
            HOSTILE_EXPECT_EXIT(run, 1);
            QVERIFY2(run.out.contains("\"ok\":false"), qPrintable(run.describe()));
            peak = std::max(peak, run.peakRssKb);
            const ProcessRun scan = runCli({QStringLiteral("scan"), path});
            HOSTILE_EXPECT_EXIT(scan, 1);
            QVERIFY2(scan.err.contains("mutant.safetensors") || scan.out.contains("mutant.safetensors"),
                     qPrintable(scan.describe()));
            peak = std::max(peak, scan.peakRssKb);
        }
        qInfo("%lld mutants of %s through validate and scan: peak RSS %ld KiB", qlonglong(mutants.size()),
              qPrintable(file), peak);
    }

private:
    QList<Case> m_cases;
    QTemporaryDir m_tmp;
};

QTEST_GUILESS_MAIN(TestHostileCorpus)
#include "tst_hostile_corpus.moc"
