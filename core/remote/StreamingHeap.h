#pragma once

namespace ts::remote {

// The allocator settings a stream of network reads needs, made once the first remote file opens.
//
// Qt Network's HTTP thread reads each piece of a response into a new QByteArray, which our network
// thread frees after copying it out. With glibc's starting settings those pieces came from fresh
// mappings or from heap tops trimmed back to the kernel after every free, so the kernel faulted in
// and zeroed them again and again: 60,000 page faults in one 1 GiB remote scan, more than half its
// system time, and a scan 1.5-2x slower than the same scan with the settings below
// (tests/bench/remote/RESULTS.md). The settings are glibc's own steady state, the one its dynamic
// threshold reaches after the first 32 MiB block is freed (mmap threshold 32 MiB, trim threshold
// twice that), set at once instead of after the pieces have been faulted in: freed memory up to
// 64 MiB per arena stays for the next piece, blocks of 32 MiB and more are still mapped and
// unmapped. A local-only session never calls this and keeps the defaults.
class StreamingHeap {
public:
    static void tune(); // idempotent, thread-safe; a no-op where the C library is not glibc
};

} // namespace ts::remote
