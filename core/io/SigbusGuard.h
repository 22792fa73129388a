#pragma once

#include <cstddef>

namespace ts {

// Makes reading a shared file mapping safe when the file shrinks under it. Touching a mapped page
// past the new end of a file raises SIGBUS, which kills the process; a tool that opens files from
// strangers, and keeps them open while people edit or re-download them, cannot allow that.
//
// Mappings registered here are watched by one process-wide SIGBUS handler. When a fault lands in
// one, the handler maps an anonymous zero page over the faulting page and marks the range; the
// faulting load is retried and reads zeros. So a reader never crashes, and afterwards asks
// faulted(): if true, whatever it computed from the mapping is discarded and the file reported as
// changed. No longjmp: C++ frames are never skipped, so the guarded code can be any code.
// A SIGBUS outside every registered range goes to the handler that was installed before ours
// (or the default action: the process dies as it would have).
class SigbusGuard {
public:
    // Watches [begin, begin + length). Returns a slot, or -1 when the table of watched ranges is
    // full: then the mapping is not safe to read directly and the caller must use pread.
    static int watch(const void* begin, std::size_t length);
    // Stops watching; call before unmapping the range.
    static void unwatch(int slot);
    // True once a SIGBUS has hit the range (it then holds zero pages where the file is gone).
    static bool faulted(int slot);
    // How many ranges are watched now (for tests).
    static int watchedCount();
};

} // namespace ts
