// The remote benchmark's second baseline: the fastest a Qt Network (QNetworkAccessManager)
// client moves a range here. One GET with a Range header, the body read as it arrives into one
// reused buffer and discarded, like curl -o /dev/null. Tensorscope must use QNetworkAccessManager
// (redirects, proxies, TLS, HTTP/2 as Qt does them), whose HTTP thread copies every body byte
// once more than curl does; this measures that transport alone, without Tensorscope's requests,
// blocks, cache or scan.
// usage: qnam_download URL FIRST LAST   (prints the body bytes received; exit 0 on a 206)
#include "remote/StreamingHeap.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    // The allocator settings tensorscope sets before its first remote read: without them this
    // baseline too spends its system time faulting in Qt's freed read buffers again.
    ts::remote::StreamingHeap::tune();
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: qnam_download URL FIRST LAST\n");
        return 2;
    }
    QNetworkAccessManager manager;
    QNetworkRequest request{QUrl(args.at(1))};
    request.setRawHeader("Range", QStringLiteral("bytes=%1-%2").arg(args.at(2), args.at(3)).toLatin1());
    QNetworkReply* reply = manager.get(request);
    std::vector<char> buffer(1 << 20);
    qint64 received = 0;
    QObject::connect(reply, &QNetworkReply::readyRead, [&] {
        while (reply->bytesAvailable() > 0)
            received += reply->read(buffer.data(), static_cast<qint64>(buffer.size()));
    });
    QObject::connect(reply, &QNetworkReply::finished, [&] {
        while (reply->bytesAvailable() > 0)
            received += reply->read(buffer.data(), static_cast<qint64>(buffer.size()));
        app.exit(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 206 ? 0 : 1);
    });
    const int code = app.exec();
    std::printf("%lld\n", static_cast<long long>(received));
    return code;
}
