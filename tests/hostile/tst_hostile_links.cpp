// One save policy for links and permissions, through the real CLI:
// a symlink is followed and kept for an in-place save and a full rewrite alike; a Hugging Face
// cache blob is never edited; a hard-linked or read-only file needs --force and is then replaced,
// never edited under its other names; temporaries of killed saves are reported, not deleted,
// until the user asks.
#include "HostileSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ts::test;

namespace {

QByteArray model()
{
    return u8Safetensors({{QStringLiteral("w"), 256}}, R"({"format":"pt"})");
}

QString metaValue(const QString& path, const QString& key)
{
    const ProcessRun r = runCli({QStringLiteral("meta"), path, QStringLiteral("--json")});
    return QJsonDocument::fromJson(r.out).object().value(key).toString();
}

ino_t inode(const QString& path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_ino : 0;
}

ProcessRun metaSet(const QString& path, const QString& assignment, const QStringList& extra = {})
{
    return runCli(QStringList{QStringLiteral("meta"), path, QStringLiteral("--set"), assignment} + extra);
}

} // namespace

class TestHostileLinks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }
    void symlinkIsFollowedAndKept_data();
    void symlinkIsFollowedAndKept();
    void huggingFaceCacheBlobIsNeverEdited();
    void hardLinkNeedsForceAndIsSplit();
    void readOnlyFileNeedsForce();
    void leftoverTemporariesAreReportedNotDeleted();

private:
    QTemporaryDir m_tmp;
};

void TestHostileLinks::symlinkIsFollowedAndKept_data()
{
    QTest::addColumn<bool>("fits");
    QTest::newRow("in place") << true;
    QTest::newRow("full rewrite") << false;
}

void TestHostileLinks::symlinkIsFollowedAndKept()
{
    QFETCH(bool, fits);
    const QString real = m_tmp.filePath(fits ? QStringLiteral("real-a/model.safetensors")
                                             : QStringLiteral("real-b/model.safetensors"));
    const QString linkDir = m_tmp.filePath(fits ? QStringLiteral("links-a") : QStringLiteral("links-b"));
    QVERIFY(QDir().mkpath(QFileInfo(real).path()) && QDir().mkpath(linkDir));
    QVERIFY(writeFile(real, model()));
    if (fits) {
        HOSTILE_EXPECT_EXIT(
            runCli({QStringLiteral("meta"), real, QStringLiteral("--set"), QStringLiteral("s=1"),
                    QStringLiteral("--header-slack"), QStringLiteral("256")}),
            0);
    }
    const QString link = linkDir + QStringLiteral("/model.safetensors");
    QVERIFY(QFile::link(real, link));
    const QString value = fits ? QStringLiteral("short") : QString(5000, QLatin1Char('v'));
    const ProcessRun r = metaSet(link, QStringLiteral("k=") + value);
    HOSTILE_EXPECT_EXIT(r, 0);
    QVERIFY2(r.out.contains(fits ? "in place" : "full rewrite"), r.out.constData());
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(QFileInfo(link).symLinkTarget(), real);
    QCOMPARE(metaValue(real, QStringLiteral("k")), value);
    // The rewrite's temporary lived beside the real file and is gone; nothing new beside the link.
    QCOMPARE(QDir(linkDir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("model.safetensors")});
    QCOMPARE(QDir(QFileInfo(real).path())
                 .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("model.safetensors")});
}

void TestHostileLinks::huggingFaceCacheBlobIsNeverEdited()
{
    // huggingface_hub's layout: snapshots/<rev>/<file> -> ../../blobs/<hash>.
    const QString repo = m_tmp.filePath(QStringLiteral("hub/models--org--tiny"));
    const QString blob = repo + QStringLiteral("/blobs/3f2a9c0e5b7d");
    const QString snap = repo + QStringLiteral("/snapshots/0123abcd/model.safetensors");
    QVERIFY(QDir().mkpath(repo + QStringLiteral("/blobs")) && QDir().mkpath(QFileInfo(snap).path()) &&
            QDir().mkpath(repo + QStringLiteral("/refs")));
    QVERIFY(writeFile(blob, model()));
    QVERIFY(QFile::link(QStringLiteral("../../blobs/3f2a9c0e5b7d"), snap));
    const QByteArray before = readFile(blob);
    for (const QStringList& extra : {QStringList{}, QStringList{QStringLiteral("--force")}}) {
        const ProcessRun r = metaSet(snap, QStringLiteral("k=v"), extra);
        HOSTILE_EXPECT_EXIT(r, 2);
        QVERIFY2(r.err.contains("Hugging Face cache") && r.err.contains("-o OUT"), r.err.constData());
        QCOMPARE(readFile(blob), before);
        QVERIFY(QFileInfo(snap).isSymLink());
    }
    // A copy elsewhere is the way.
    const QString copy = m_tmp.filePath(QStringLiteral("hub-copy.safetensors"));
    HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("meta"), snap, QStringLiteral("--set"), QStringLiteral("k=v"),
                                QStringLiteral("-o"), copy}),
                        0);
    QCOMPARE(metaValue(copy, QStringLiteral("k")), QStringLiteral("v"));
    QCOMPARE(readFile(blob), before);
}

void TestHostileLinks::hardLinkNeedsForceAndIsSplit()
{
    const QString a = m_tmp.filePath(QStringLiteral("hard-a.safetensors"));
    const QString b = m_tmp.filePath(QStringLiteral("hard-b.safetensors"));
    QVERIFY(writeFile(a, model()));
    QCOMPARE(::link(QFile::encodeName(a).constData(), QFile::encodeName(b).constData()), 0);
    const QByteArray before = readFile(a);
    const ProcessRun refused = metaSet(a, QStringLiteral("k=v"));
    HOSTILE_EXPECT_EXIT(refused, 2);
    QVERIFY2(refused.err.contains("2 hard links") && refused.err.contains("--force"),
             refused.err.constData());
    QCOMPARE(readFile(a), before);
    // Forced: a new file under this name, even though the header would fit in place.
    const ProcessRun forced = metaSet(a, QStringLiteral("k=v"), {QStringLiteral("--force")});
    HOSTILE_EXPECT_EXIT(forced, 0);
    QVERIFY2(forced.out.contains("full rewrite"), forced.out.constData());
    QCOMPARE(metaValue(a, QStringLiteral("k")), QStringLiteral("v"));
    QCOMPARE(readFile(b), before);
    QVERIFY(inode(a) != inode(b));
}

void TestHostileLinks::readOnlyFileNeedsForce()
{
    const QString path = m_tmp.filePath(QStringLiteral("readonly.safetensors"));
    QVERIFY(writeFile(path, model()));
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
    const QByteArray before = readFile(path);
    const ProcessRun refused = metaSet(path, QStringLiteral("k=v"));
    HOSTILE_EXPECT_EXIT(refused, 2);
    QVERIFY2(refused.err.contains("read-only") && refused.err.contains("--force"), refused.err.constData());
    QCOMPARE(readFile(path), before);
    const ProcessRun forced = metaSet(path, QStringLiteral("k=v"), {QStringLiteral("--force")});
    HOSTILE_EXPECT_EXIT(forced, 0);
    QCOMPARE(metaValue(path, QStringLiteral("k")), QStringLiteral("v"));
    struct stat st {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(st.st_mode & 07777, mode_t(0444));
}

void TestHostileLinks::leftoverTemporariesAreReportedNotDeleted()
{
    const QString dir = m_tmp.filePath(QStringLiteral("leftover"));
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + QStringLiteral("/model.safetensors");
    QVERIFY(writeFile(path, model()));
    // What a SIGKILLed full rewrite leaves (AtomicFile's mkstemp name), 3 MiB of it.
    const QString temp = dir + QStringLiteral("/.model.safetensors.tensorscope-Ab12Cd");
    QVERIFY(writeFile(temp, QByteArray(3 << 20, 'x')));
    for (const QString& cmd : {QStringLiteral("validate"), QStringLiteral("ls"), QStringLiteral("scan")}) {
        HOSTILE_EXPECT_EXIT(runCli({cmd, path}), 0);
        QVERIFY(QFileInfo::exists(temp));
    }
    const ProcessRun info = runCli({QStringLiteral("info"), path, QStringLiteral("--json")});
    HOSTILE_EXPECT_EXIT(info, 0);
    bool found = false;
    const QJsonArray warnings =
        QJsonDocument::fromJson(info.out).object().value(QStringLiteral("warnings")).toArray();
    for (const QJsonValue& w : warnings) {
        const QJsonObject o = w.toObject();
        if (o.value(QStringLiteral("code")).toString() == QLatin1String("LeftoverTemporary")) {
            found = true;
            QVERIFY2(o.value(QStringLiteral("message")).toString().contains(QStringLiteral("3.00 MiB")),
                     qPrintable(o.value(QStringLiteral("message")).toString()));
        }
    }
    QVERIFY2(found, info.out.constData());
    QVERIFY(QFileInfo::exists(temp));
    const ProcessRun recover =
        runCli({QStringLiteral("recover"), path, QStringLiteral("--remove-leftovers")});
    HOSTILE_EXPECT_EXIT(recover, 0);
    QVERIFY2(recover.out.contains("removed .model.safetensors.tensorscope-Ab12Cd"), recover.out.constData());
    QVERIFY(!QFileInfo::exists(temp));
    QVERIFY(QFileInfo::exists(path));
}

QTEST_GUILESS_MAIN(TestHostileLinks)
#include "tst_hostile_links.moc"
