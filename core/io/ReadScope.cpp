#include "io/ReadScope.h"

namespace ts {
namespace {

thread_local std::optional<CancelToken> t_cancel;
thread_local std::optional<ProgressSink> t_transfers;

} // namespace

ReadScope::ReadScope(std::optional<CancelToken> cancel, std::optional<ProgressSink> transfers)
    : m_previousCancel(t_cancel), m_previousTransfers(t_transfers)
{
    if (cancel)
        t_cancel = std::move(cancel);
    if (transfers)
        t_transfers = std::move(transfers);
}

ReadScope::~ReadScope()
{
    t_cancel = std::move(m_previousCancel);
    t_transfers = std::move(m_previousTransfers);
}

bool ReadScope::cancelRequested()
{
    return t_cancel && t_cancel->isCancelled();
}

std::optional<ProgressSink> ReadScope::transfers()
{
    return t_transfers;
}

ReadScope::Captured ReadScope::capture()
{
    return Captured{t_cancel, t_transfers};
}

} // namespace ts
