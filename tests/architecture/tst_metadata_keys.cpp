// What well-known metadata keys mean, and the values that are opaque until decoded.
#include "metadata/MetadataKeys.h"

#include <QTest>

using namespace ts;

class TestMetadataKeys : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void knownKeys()
    {
        const auto format = MetadataKeys::explain(QStringLiteral("format"), QStringLiteral("pt"));
        QVERIFY(format);
        QCOMPARE(format->decoded, QStringLiteral("PyTorch"));
        QVERIFY(format->meaning.contains(QLatin1String("framework")));
        const auto total =
            MetadataKeys::explain(QStringLiteral("total_parameters"), QStringLiteral("8030261248"));
        QCOMPARE(total->origin, QStringLiteral("Hugging Face Hub"));
        QCOMPARE(total->decoded, QStringLiteral("8,030,261,248 parameters (8.03B)"));
        const auto arch =
            MetadataKeys::explain(QStringLiteral("modelspec.architecture"), QStringLiteral("flux-1-dev"));
        QCOMPARE(arch->origin, QStringLiteral("Stability AI ModelSpec"));
        const auto dim = MetadataKeys::explain(QStringLiteral("ss_network_dim"), QStringLiteral("16"));
        QCOMPARE(dim->origin, QStringLiteral("kohya-ss sd-scripts"));
        QVERIFY(dim->meaning.contains(QLatin1String("rank")));
    }

    void opaqueValuesDecoded()
    {
        QCOMPARE(
            MetadataKeys::explain(QStringLiteral("ss_training_started_at"), QStringLiteral("1700000000.5"))
                ->decoded,
            QStringLiteral("2023-11-14 22:13:20 UTC"));
        QCOMPARE(
            MetadataKeys::explain(QStringLiteral("ss_base_model_version"), QStringLiteral("sdxl_base_v1-0"))
                ->decoded,
            QStringLiteral("SDXL 1.0"));
        const auto tags = MetadataKeys::explain(
            QStringLiteral("ss_tag_frequency"),
            QStringLiteral("{\"10_cat\": {\"cat\": 40, \"sitting\": 12}, \"5_dog\": {\"dog\": 20}}"));
        QCOMPARE(tags->decoded,
                 QStringLiteral("3 tags in 2 folders; most frequent: cat (40), dog (20), sitting (12)"));
        const auto thumb = MetadataKeys::explain(QStringLiteral("modelspec.thumbnail"),
                                                 QStringLiteral("data:image/png;base64,AAAA"));
        QVERIFY2(thumb->decoded.startsWith(QLatin1String("image/png image")), qPrintable(thumb->decoded));
        // Nonsense stays undecoded rather than shown as a date in 1970.
        QVERIFY(MetadataKeys::explain(QStringLiteral("ss_training_started_at"), QStringLiteral("soon"))
                    ->decoded.isEmpty());
    }

    void familiesAndUnknownKeys()
    {
        // Every ss_ option kohya records is at least attributed; unknown keys are not guessed at.
        const auto other = MetadataKeys::explain(QStringLiteral("ss_some_new_option"), QStringLiteral("1"));
        QVERIFY(other);
        QCOMPARE(other->origin, QStringLiteral("kohya-ss sd-scripts"));
        QVERIFY(!MetadataKeys::explain(QStringLiteral("my_key"), QStringLiteral("x")));
        QVERIFY(!MetadataKeys::explain(QStringLiteral("Format"),
                                       QStringLiteral("pt"))); // keys are case-sensitive
    }
};

QTEST_GUILESS_MAIN(TestMetadataKeys)
#include "tst_metadata_keys.moc"
