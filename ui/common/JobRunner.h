#pragma once

#include "base/JobControl.h"

#include <QFuture>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>
#include <memory>
#include <type_traits>

namespace ts::ui {

// The one way the window runs background work (the shape of KDAB/hotspot's src/jobtracker.h).
// A JobRunner is one slot of a widget: its load, its heatmap, its statistics. start() runs
// `work(control)` on the global thread pool and gives the job an id; the job's result comes back
// on the UI thread to `deliver` only while the receiver exists and the job is still the slot's
// current one. Starting a newer job supersedes the running one, as cancel() does: its token is
// cancelled and whatever it still returns is dropped, so a late result never shows for the wrong
// tensor. Progress the work adds to its control's sink reaches `onProgress` throttled, under the
// same rule. `work` runs on a pool thread and may outlive the runner and the receiver: it must
// own what it reads (values, shared pointers), never the widget.
class JobRunner {
public:
    using ProgressHandler = std::function<void(const Progress&)>;

    explicit JobRunner(QObject* receiver);
    ~JobRunner(); // cancels the running job
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    template <typename Work, typename Deliver> quint64 start(Work work, Deliver deliver)
    {
        return start(std::move(work), std::move(deliver), {});
    }
    template <typename Work, typename Deliver>
    quint64 start(Work work, Deliver deliver, ProgressHandler onProgress,
                  std::chrono::milliseconds interval = ProgressSink::kDefaultInterval)
    {
        JobControl control;
        const quint64 id = supersede(control.cancel);
        if (onProgress)
            control.progress = ProgressSink(relayProgress(id, std::move(onProgress)), interval);
        m_future = launch(m_slot, m_receiver, id, std::move(control), std::move(work), std::move(deliver));
        return id;
    }
    // A job no later one supersedes (an export: each one's outcome is reported): delivered
    // whenever it ends, while the receiver exists.
    template <typename Work, typename Deliver>
    static void startDetached(QObject* receiver, Work work, Deliver deliver)
    {
        auto slot = std::make_shared<Slot>();
        JobControl control;
        slot->current = slot->last = 1;
        slot->token = control.cancel;
        launch(slot, receiver, 1, std::move(control), std::move(work), std::move(deliver));
    }

    // The running job is told to stop and its result will be dropped: nobody waits for it now.
    void cancel();
    // The running job is told to stop, but its result is still delivered: a Cancelled error, or
    // what it finished first (a conversion that completed just before Cancel reached it).
    void requestStop();
    // Blocks until the last started job's work returned (its delivery may still be queued).
    void waitForFinished();
    // A job started and neither delivered nor cancelled.
    bool isRunning() const { return m_slot->current != 0; }
    // The id of the running job, or 0.
    quint64 currentJob() const { return m_slot->current; }

private:
    // Shared with the jobs. Touched on the UI thread only: by start()/cancel() and by the
    // deliveries queued there.
    struct Slot {
        quint64 current = 0; // the job whose result is wanted; 0: none
        quint64 last = 0;
        CancelToken token; // the current job's
    };

    quint64 supersede(const CancelToken& token);
    ProgressSink::Listener relayProgress(quint64 id, ProgressHandler onProgress);
    // Queues `call` to the UI thread, where it runs only if `receiver` still exists.
    static void post(const QPointer<QObject>& receiver, std::function<void()> call);
    // The stale-result check: whether job `id` is still the one its slot wants; its delivery
    // ends the job.
    static bool finish(Slot& slot, quint64 id);
    static QFuture<void> runOnPool(std::function<void()> job);

    template <typename Work, typename Deliver>
    static QFuture<void> launch(std::shared_ptr<Slot> slot, QPointer<QObject> receiver, quint64 id,
                                JobControl control, Work work, Deliver deliver)
    {
        using R = std::invoke_result_t<Work&, const JobControl&>;
        return runOnPool([slot = std::move(slot), receiver = std::move(receiver), id,
                          control = std::move(control), work = std::move(work),
                          deliver = std::move(deliver)]() mutable {
            auto result = std::make_shared<R>(work(control));
            post(receiver, [slot, id, result, deliver = std::move(deliver)]() mutable {
                if (finish(*slot, id))
                    deliver(std::move(*result));
            });
        });
    }

    QPointer<QObject> m_receiver;
    std::shared_ptr<Slot> m_slot;
    QFuture<void> m_future;
};

} // namespace ts::ui
