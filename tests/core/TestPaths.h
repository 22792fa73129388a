#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QTest>

// Fixture locations shared by the core and CLI suites.
namespace tspaths {

inline QString conformanceDir()
{
    return QStringLiteral(TS_TEST_DATA "/conformance");
}

// The real-weight fixtures stay in ../shared (read-only). Their absence is a failure, said plainly:
// a suite that silently skipped them would pass with the feature removed.
inline QString realFixture(const QString& name)
{
    return QStringLiteral(TS_SHARED_DIR "/fixtures/real/") + name;
}

inline bool sharedFixturesPresent()
{
    return QFileInfo::exists(QStringLiteral(TS_SHARED_DIR "/fixtures/real"));
}

} // namespace tspaths

#define REQUIRE_SHARED_FIXTURES()                                                                            \
    do {                                                                                                     \
        if (!tspaths::sharedFixturesPresent())                                                               \
            QFAIL("the shared real-weight fixtures are missing: expected " TS_SHARED_DIR                     \
                  "/fixtures/real (lay ../shared beside the project root)");                                 \
    } while (0)
