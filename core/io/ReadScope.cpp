#include "io/ReadScope.h"

namespace ts {
namespace {

thread_local const std::atomic<bool>* t_cancel = nullptr;
thread_local std::shared_ptr<TransferCount> t_transfers;

} // namespace

ReadScope::ReadScope(const std::atomic<bool>* cancel, std::shared_ptr<TransferCount> transfers)
    : m_previousCancel(t_cancel), m_previousTransfers(t_transfers)
{
    if (cancel)
        t_cancel = cancel;
    if (transfers)
        t_transfers = std::move(transfers);
}

ReadScope::~ReadScope()
{
    t_cancel = m_previousCancel;
    t_transfers = std::move(m_previousTransfers);
}

bool ReadScope::cancelRequested()
{
    return t_cancel && t_cancel->load(std::memory_order_relaxed);
}

const std::atomic<bool>* ReadScope::cancelFlag()
{
    return t_cancel;
}

std::shared_ptr<TransferCount> ReadScope::transfers()
{
    return t_transfers;
}

ReadScope::Captured ReadScope::capture()
{
    return Captured{t_cancel, t_transfers};
}

} // namespace ts
