// The pieces of remote reading that need no server: URL handling in the core, the parsing of a
// server's answers, where the token may go, proxies from the environment, the disk cache's bound,
// the memory transfers are written into.
#include "io/RemoteLocation.h"
#include "remote/BlockCache.h"
#include "remote/EnvProxyFactory.h"
#include "remote/RemoteIdentity.h"
#include "remote/RemoteSettings.h"
#include "remote/SpanBuffers.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace ts;
using namespace ts::remote;

class TestRemoteUnits : public QObject {
    Q_OBJECT
private slots:
    void locations()
    {
        QVERIFY(RemoteLocation::isRemote(QStringLiteral("https://h/m.safetensors")));
        QVERIFY(RemoteLocation::isRemote(QStringLiteral("HTTP://h/m.safetensors")));
        QVERIFY(!RemoteLocation::isRemote(QStringLiteral("/tmp/https://x")));
        QVERIFY(!RemoteLocation::isRemote(QStringLiteral("ftp://h/m.safetensors")));
        QCOMPARE(RemoteLocation::redacted(QStringLiteral("https://me:secret@h:8443/a/m.safetensors")),
                 QStringLiteral("https://h:8443/a/m.safetensors"));
        QCOMPARE(RemoteLocation::fileName(QStringLiteral("https://h/a/my%20model.safetensors?download=1")),
                 QStringLiteral("my model.safetensors"));
        QCOMPARE(RemoteLocation::sibling(
                     QStringLiteral("https://h/o/r/resolve/main/model.safetensors.index.json?x=1"),
                     QStringLiteral("model-00001-of-00002.safetensors")),
                 QStringLiteral("https://h/o/r/resolve/main/model-00001-of-00002.safetensors"));
        // A shard name with characters that mean something in a URL stays one path segment.
        QCOMPARE(RemoteLocation::sibling(QStringLiteral("https://h/d/i.json"),
                                         QStringLiteral("a#b?c.safetensors")),
                 QStringLiteral("https://h/d/a%23b%3Fc.safetensors"));
        QVERIFY(RemoteLocation::isIndex(
            QStringLiteral("https://h/d/model.safetensors.index.json?download=true")));
        QVERIFY(!RemoteLocation::isIndex(QStringLiteral("https://h/d/model.safetensors")));
        QCOMPARE(
            RemoteLocation::folderName(QStringLiteral("https://huggingface.co/org/repo/resolve/main/x.json")),
            QStringLiteral("repo"));
    }

    void hubPageUrlsReadTheFile()
    {
        QCOMPARE(RemoteLocation::normalized(
                     QStringLiteral("https://huggingface.co/org/repo/blob/main/model.safetensors")),
                 QStringLiteral("https://huggingface.co/org/repo/resolve/main/model.safetensors"));
        QCOMPARE(RemoteLocation::normalized(QStringLiteral(
                     "https://huggingface.co/datasets/org/repo/blob/v1/sub/model.safetensors")),
                 QStringLiteral("https://huggingface.co/datasets/org/repo/resolve/v1/sub/model.safetensors"));
        // Other hosts, and a repository that is called "blob", are left alone.
        const QString other = QStringLiteral("https://example.org/org/repo/blob/main/model.safetensors");
        QCOMPARE(RemoteLocation::normalized(other), other);
        const QString named = QStringLiteral("https://huggingface.co/org/blob/resolve/main/m.safetensors");
        QCOMPARE(RemoteLocation::normalized(named), named);
    }

    void contentRange()
    {
        const auto r = ContentRange::parse("bytes 100-199/1000");
        QVERIFY(r);
        QCOMPARE(r->first, 100u);
        QCOMPARE(r->last, 199u);
        QCOMPARE(r->total, 1000u);
        QVERIFY(!ContentRange::parse("bytes 100-199/*"));
        QVERIFY(!ContentRange::parse("bytes 200-100/1000"));
        QVERIFY(!ContentRange::parse("bytes 0-1000/1000"));
        QVERIFY(!ContentRange::parse("items 0-1/2"));
        QVERIFY(!ContentRange::parse("bytes -1-5/9"));
        QCOMPARE(ContentRange::unsatisfiedTotal("bytes */0"), std::optional<std::uint64_t>(0));
    }

    void identityMismatch()
    {
        const RemoteIdentity opened{1000, "\"abc\"", "Mon, 01 Dec 2026 10:00:00 GMT"};
        QVERIFY(opened.mismatch(opened).isEmpty());
        RemoteIdentity other = opened;
        other.etag = "\"def\"";
        QVERIFY(opened.mismatch(other).contains("ETag"));
        other = opened;
        other.size = 999;
        QVERIFY(opened.mismatch(other).contains("size"));
        // A server that stops sending the ETag can no longer vouch for the bytes.
        other = opened;
        other.etag.clear();
        QVERIFY(!opened.mismatch(other).isEmpty());
        // Without an ETag, Last-Modified decides.
        RemoteIdentity dated{1000, {}, "Mon, 01 Dec 2026 10:00:00 GMT"};
        RemoteIdentity later = dated;
        later.lastModified = "Mon, 01 Dec 2026 10:00:07 GMT";
        QVERIFY(dated.mismatch(later).contains("Last-Modified"));
        // Weak ETags do not key cached bytes; Last-Modified does then.
        QCOMPARE(RemoteIdentity({1, "W/\"x\"", "d"}).cacheValidator(), QByteArray("modified d"));
        QCOMPARE(RemoteIdentity({1, "\"x\"", "d"}).cacheValidator(), QByteArray("etag \"x\""));
        QVERIFY(RemoteIdentity({1, {}, {}}).cacheValidator().isEmpty());
    }

    void tokenGoesOnlyWhereItIsMeant()
    {
        RemoteSettings s;
        s.token = QStringLiteral("hf_secret");
        s.tokenHosts = RemoteSettings::defaultTokenHosts();
        QVERIFY(
            s.sendsTokenTo(QUrl(QStringLiteral("https://huggingface.co/o/r/resolve/main/m.safetensors"))));
        QVERIFY(s.sendsTokenTo(QUrl(QStringLiteral("https://cdn-lfs.huggingface.co/x"))));
        QVERIFY(s.sendsTokenTo(QUrl(QStringLiteral("https://hf.co/o/r"))));
        QVERIFY(!s.sendsTokenTo(QUrl(QStringLiteral("https://evilhuggingface.co/x"))));
        QVERIFY(!s.sendsTokenTo(QUrl(QStringLiteral("https://example.org/m.safetensors"))));
        s.tokenHosts = {QStringLiteral("127.0.0.1:8080")};
        QVERIFY(s.sendsTokenTo(QUrl(QStringLiteral("http://127.0.0.1:8080/m"))));
        QVERIFY(!s.sendsTokenTo(QUrl(QStringLiteral("http://127.0.0.1:8081/m"))));
        s.tokenHosts = {QStringLiteral("*")};
        QVERIFY(s.sendsTokenTo(QUrl(QStringLiteral("https://anywhere/m"))));
        s.token.clear();
        QVERIFY(!s.sendsTokenTo(QUrl(QStringLiteral("https://anywhere/m"))));
    }

    void endpointHostGetsTheToken()
    {
        qputenv("HF_ENDPOINT", "https://hub.lab.example:8443");
        const QStringList hosts = RemoteSettings::defaultTokenHosts();
        qunsetenv("HF_ENDPOINT");
        QVERIFY(hosts.contains(QStringLiteral("hub.lab.example:8443")));
    }

    void proxiesFromTheEnvironment()
    {
        qputenv("https_proxy", "http://proxy.example:3128");
        qputenv("http_proxy", "proxy.example:8080");
        qputenv("no_proxy", ".internal.example, direct.example:8000");
        EnvProxyFactory f;
        qunsetenv("https_proxy");
        qunsetenv("http_proxy");
        qunsetenv("no_proxy");
        QCOMPARE(f.proxyFor(QUrl(QStringLiteral("https://huggingface.co/x"))),
                 QUrl(QStringLiteral("http://proxy.example:3128")));
        QCOMPARE(f.proxyFor(QUrl(QStringLiteral("http://files.example/x"))),
                 QUrl(QStringLiteral("http://proxy.example:8080")));
        QVERIFY(f.proxyFor(QUrl(QStringLiteral("https://a.internal.example/x"))).isEmpty());
        QVERIFY(f.proxyFor(QUrl(QStringLiteral("https://internal.example/x"))).isEmpty());
        QVERIFY(f.proxyFor(QUrl(QStringLiteral("http://direct.example:8000/x"))).isEmpty());
        QVERIFY(!f.proxyFor(QUrl(QStringLiteral("http://direct.example:9000/x"))).isEmpty());
        // Loopback never goes through a proxy: a local server is local.
        QVERIFY(f.proxyFor(QUrl(QStringLiteral("http://127.0.0.1:9/x"))).isEmpty());
        QVERIFY(f.proxyFor(QUrl(QStringLiteral("http://localhost:9/x"))).isEmpty());
    }

    void cacheStaysWithinItsBound()
    {
        QTemporaryDir dir;
        BlockCache cache(dir.path(), 0);
        QVERIFY(!cache.enabled());
        cache.setLimit(1 << 20);
        QVERIFY(cache.enabled());
        const QByteArray key = BlockCache::keyFor(QStringLiteral("https://h/m"), 100, "etag \"1\"");
        // Ten heads of 256 KiB under keys of their own: the bound (1 MiB) keeps the last ones.
        for (int i = 0; i < 10; ++i) {
            const QByteArray k =
                BlockCache::keyFor(QStringLiteral("https://h/m%1").arg(i), 100, "etag \"1\"");
            cache.storeHead(k, std::vector<std::byte>(256 * 1024, std::byte(i)));
            cache.flush();
            QVERIFY2(cache.usedBytes() <= (1u << 20), qPrintable(QString::number(cache.usedBytes())));
        }
        const QByteArray last = BlockCache::keyFor(QStringLiteral("https://h/m9"), 100, "etag \"1\"");
        const auto kept = cache.loadHead(last);
        QVERIFY(kept);
        QCOMPARE(kept->size(), std::size_t(256 * 1024));
        QCOMPARE((*kept)[100], std::byte(9));
        QVERIFY(!cache.loadHead(BlockCache::keyFor(QStringLiteral("https://h/m0"), 100, "etag \"1\"")));
        // The folder is the user's alone.
        QCOMPARE(QFileInfo(dir.path()).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());
        cache.clear();
        QCOMPARE(cache.usedBytes(), 0u);
        QVERIFY(!cache.loadHead(key));
    }

    // A span's buffer is 2 MiB-aligned and, where the kernel offers transparent huge pages on
    // request, backed by them once written: in 4 KiB pages a remote scan's first window cost
    // 37,000 page faults and the scan ran 1.45x longer (tests/bench/remote/RESULTS.md).
    void spanBuffersAreHugePageBacked()
    {
        constexpr std::uint64_t kSpan = 16 << 20;
        SpanBuffers::Buffer b = SpanBuffers::take(kSpan);
        const auto at = reinterpret_cast<std::uintptr_t>(b.get());
        QCOMPARE(at % (2u << 20), std::uintptr_t(0));
        std::memset(b.get(), 0x5a, kSpan);
        QFile mode(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
        const bool offered = mode.open(QIODevice::ReadOnly) && !mode.readAll().contains("[never]");
        // The mapping that holds the buffer, from this process's own page table summary.
        QFile smaps(QStringLiteral("/proc/self/smaps"));
        QVERIFY(smaps.open(QIODevice::ReadOnly | QIODevice::Text));
        qint64 hugeKiB = -1;
        bool inside = false;
        for (const QByteArray& line : smaps.readAll().split('\n')) {
            const qsizetype dash = line.indexOf('-');
            const qsizetype space = line.indexOf(' ');
            // A mapping's line starts "lo-hi perms ..."; its fields' lines start "Name:".
            if (dash > 0 && space > dash && !line.left(space).contains(':')) {
                bool ok1 = false, ok2 = false;
                const auto lo = line.left(dash).toULongLong(&ok1, 16);
                const auto hi = line.mid(dash + 1, space - dash - 1).toULongLong(&ok2, 16);
                inside = ok1 && ok2 && lo <= at && at < hi;
            } else if (inside && line.startsWith("AnonHugePages:")) {
                hugeKiB = line.mid(14).trimmed().split(' ').first().toLongLong();
                inside = false;
            }
        }
        QVERIFY2(hugeKiB >= 0, "the buffer's mapping is not in /proc/self/smaps");
        if (offered)
            QVERIFY2(hugeKiB >= 2048, qPrintable(QStringLiteral("%1 KiB in huge pages").arg(hugeKiB)));
        SpanBuffers::give(std::move(b), kSpan);
        // Given back, it is the next one of that size: no fresh pages for the span after it.
        QCOMPARE(reinterpret_cast<std::uintptr_t>(SpanBuffers::take(kSpan).get()), at);
    }

    void damagedCacheFilesAreIgnored()
    {
        QTemporaryDir dir;
        BlockCache cache(dir.path(), 1 << 20);
        const QByteArray key = BlockCache::keyFor(QStringLiteral("https://h/m"), 100, "etag \"1\"");
        cache.storeHead(key, std::vector<std::byte>(1000, std::byte(7)));
        cache.flush();
        QVERIFY(cache.loadHead(key));
        QDirIterator it(dir.path(), {QStringLiteral("head.blk")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(500)); // cut short, as a full disk would leave it
        f.close();
        QVERIFY(!cache.loadHead(key));
    }
};

QTEST_GUILESS_MAIN(TestRemoteUnits)
#include "tst_remote_units.moc"
