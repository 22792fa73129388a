#include "common/JobRunner.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

namespace ts::ui {

JobRunner::JobRunner(QObject* receiver) : m_receiver(receiver), m_slot(std::make_shared<Slot>()) {}

JobRunner::~JobRunner()
{
    cancel();
}

quint64 JobRunner::supersede(const CancelToken& token)
{
    cancel();
    m_slot->current = ++m_slot->last;
    m_slot->token = token;
    return m_slot->current;
}

void JobRunner::cancel()
{
    m_slot->token.cancel();
    m_slot->current = 0;
}

void JobRunner::requestStop()
{
    if (isRunning())
        m_slot->token.cancel();
}

void JobRunner::waitForFinished()
{
    m_future.waitForFinished();
}

bool JobRunner::finish(Slot& slot, quint64 id)
{
    if (slot.current != id)
        return false; // superseded or cancelled: its result is for nobody
    slot.current = 0;
    return true;
}

ProgressSink::Listener JobRunner::relayProgress(quint64 id, ProgressHandler onProgress)
{
    return [slot = m_slot, receiver = m_receiver, id, onProgress = std::move(onProgress)](const Progress& p) {
        post(receiver, [slot, id, p, onProgress] {
            if (slot->current == id)
                onProgress(p);
        });
    };
}

QFuture<void> JobRunner::runOnPool(std::function<void()> job)
{
    // QtConcurrent's global pool: a QFuture to wait on (Convert's close), and the pool a test can
    // fill to hold jobs back.
    return QtConcurrent::run(std::move(job));
}

void JobRunner::post(const QPointer<QObject>& receiver, std::function<void()> call)
{
    // Queued to the application object, not to the receiver: the receiver may be deleted on the
    // UI thread while this runs on a pool thread, and only the UI thread can tell safely whether
    // it still exists.
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [receiver, call = std::move(call)] {
            if (receiver)
                call();
        },
        Qt::QueuedConnection);
}

} // namespace ts::ui
