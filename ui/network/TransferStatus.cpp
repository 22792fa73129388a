#include "network/TransferStatus.h"

#include "base/Format.h"
#include "checkpoint/Checkpoint.h"
#include "remote/HttpByteSource.h"

#include <QTimer>
#include <QUrl>

namespace ts::ui {
namespace {

constexpr int kRefreshMs = 250;

} // namespace

TransferStatus::TransferStatus(QWidget* parent) : QLabel(parent), m_timer(new QTimer(this))
{
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &TransferStatus::refresh);
    hide();
}

QString TransferStatus::describe(const Checkpoint& checkpoint)
{
    remote::HttpByteSource::Stats sum;
    QString host;
    bool remote = false;
    for (const CheckpointPart& part : checkpoint.parts()) {
        const auto* source = dynamic_cast<const remote::HttpByteSource*>(part.source.get());
        if (!source)
            continue;
        remote = true;
        const remote::HttpByteSource::Stats s = source->stats();
        sum.transferred += s.transferred;
        sum.fromCache += s.fromCache;
        sum.requests += s.requests;
        host = QUrl(part.location).host();
    }
    if (!remote)
        return {};
    QString text = tr("\u2193 %1 from %2").arg(formatBytes(sum.transferred), host);
    if (sum.fromCache > 0)
        text += tr(" \u00b7 %1 from the cache").arg(formatBytes(sum.fromCache));
    return text;
}

void TransferStatus::setCheckpoint(std::shared_ptr<const Checkpoint> checkpoint)
{
    m_checkpoint = std::move(checkpoint);
    refresh();
    const bool remote = !text().isEmpty();
    setVisible(remote);
    if (remote)
        m_timer->start();
    else
        m_timer->stop();
}

void TransferStatus::refresh()
{
    const QString text = m_checkpoint ? describe(*m_checkpoint) : QString();
    if (text != this->text())
        setText(text);
    setToolTip(tr("Bytes this model's views and scans brought from the server, and from the disk cache."));
}

} // namespace ts::ui
