#include "io/SigbusGuard.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace ts {
namespace {

// Lock-free slots: the signal handler may only use async-signal-safe operations, and lock-free
// atomics are. 4096 open files at once is far beyond any use; a full table degrades to pread.
struct Slot {
    std::atomic<bool> used{false};
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};
constexpr int kSlots = 4096;
Slot g_slots[kSlots];
std::atomic<int> g_watched{0};
std::uintptr_t g_pageSize = 4096;
struct sigaction g_previous {};
std::once_flag g_installed;

void forwardToPrevious(int sig, siginfo_t* info, void* context)
{
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction) {
            g_previous.sa_sigaction(sig, info, context);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    // Default action: restore it and return; the faulting instruction runs again and the process
    // dies of SIGBUS exactly as it would have without us (core dump and all).
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(SIGBUS, &dfl, nullptr);
}

void onSigbus(int sig, siginfo_t* info, void* context)
{
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (Slot& slot : g_slots) {
        if (!slot.used.load(std::memory_order_acquire))
            continue;
        if (address < slot.begin.load(std::memory_order_relaxed) ||
            address >= slot.end.load(std::memory_order_relaxed))
            continue;
        const std::uintptr_t page = address & ~(g_pageSize - 1);
        // mmap is a plain system call on Linux, safe here although POSIX does not list it.
        void* zero = ::mmap(reinterpret_cast<void*>(page), g_pageSize, PROT_READ,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zero != MAP_FAILED) {
            slot.faulted.store(true, std::memory_order_release);
            return;
        }
        break;
    }
    forwardToPrevious(sig, info, context);
}

void install()
{
    g_pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction action {};
    action.sa_sigaction = onSigbus;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
}

} // namespace

int SigbusGuard::watch(const void* begin, std::size_t length)
{
    std::call_once(g_installed, install);
    for (int i = 0; i < kSlots; ++i) {
        Slot& slot = g_slots[i];
        // Claim with the range still empty, fill it, then publish: the handler never sees a
        // half-written range as in use.
        if (slot.begin.load(std::memory_order_relaxed) != 0 || slot.end.load(std::memory_order_relaxed) != 0)
            continue;
        std::uintptr_t none = 0;
        if (!slot.end.compare_exchange_strong(none, 1, std::memory_order_acq_rel))
            continue;
        slot.faulted.store(false, std::memory_order_relaxed);
        slot.begin.store(reinterpret_cast<std::uintptr_t>(begin), std::memory_order_relaxed);
        slot.end.store(reinterpret_cast<std::uintptr_t>(begin) + length, std::memory_order_relaxed);
        slot.used.store(true, std::memory_order_release);
        g_watched.fetch_add(1, std::memory_order_relaxed);
        return i;
    }
    return -1;
}

void SigbusGuard::unwatch(int slot)
{
    if (slot < 0 || slot >= kSlots)
        return;
    Slot& s = g_slots[slot];
    s.used.store(false, std::memory_order_release);
    s.begin.store(0, std::memory_order_relaxed);
    s.end.store(0, std::memory_order_release); // frees the slot for the next watch()
    g_watched.fetch_sub(1, std::memory_order_relaxed);
}

bool SigbusGuard::faulted(int slot)
{
    return slot >= 0 && slot < kSlots && g_slots[slot].faulted.load(std::memory_order_acquire);
}

int SigbusGuard::watchedCount()
{
    return g_watched.load(std::memory_order_relaxed);
}

} // namespace ts
