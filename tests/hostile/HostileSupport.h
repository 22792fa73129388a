#pragma once

// The hostile-input suites' assertions on a child's run (tests/support/ChildProcess.h runs it):
// a crash or a hang fails with everything the run reported, and memory bounds hold where they mean
// something.
#include "ChildProcess.h"
#include "Fixtures.h"
#include "RawFiles.h"
#include "TestFiles.h"

// ASan/UBSan builds (the asan preset) use several times the memory: RSS bounds are only logged.
#if defined(__SANITIZE_ADDRESS__)
#define HOSTILE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTILE_SANITIZED 1
#endif
#endif
#ifndef HOSTILE_SANITIZED
#define HOSTILE_SANITIZED 0
#endif

#define HOSTILE_EXPECT_RSS_BELOW(run, kb)                                                                    \
    do {                                                                                                     \
        if (!HOSTILE_SANITIZED)                                                                              \
            QVERIFY2((run).peakRssKb < (kb), qPrintable((run).describe()));                                  \
    } while (0)

// Fails the test if the child crashed or hung; otherwise checks the exit status.
#define HOSTILE_EXPECT_EXIT(run, expected)                                                                   \
    do {                                                                                                     \
        const ::ts::test::ProcessRun& r_ = (run);                                                            \
        QVERIFY2(!r_.timedOut && r_.signal == 0, qPrintable(r_.describe()));                                 \
        QVERIFY2(r_.exitCode == (expected), qPrintable(r_.describe()));                                      \
    } while (0)
