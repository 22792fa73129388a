#pragma once

#include <QString>

// Where the tests find their input files: the conformance corpus in the repository
// (tests/data/conformance) and the real-weight fixtures in ../shared beside the project root,
// which is not part of the repository.
namespace ts::test {

QString testDataDir();    // tests/data
QString conformanceDir(); // tests/data/conformance
QString sharedDir();      // ../shared beside the project root
// A real-weight fixture (a file or a folder) by name: its path whether it exists or not.
QString realFixture(const QString& name);
bool sharedFixturesPresent();
// Empty when `path` exists; otherwise a sentence that says what is missing and, when ../shared is
// absent as a whole, that it is.
QString missingFixture(const QString& path);

} // namespace ts::test

// A suite that needs a fixture fails when it is absent, saying so: a test that skipped silently
// would pass with the feature removed. For Qt Test suites (QFAIL).
#define TS_REQUIRE_FIXTURE(path)                                                                             \
    do {                                                                                                     \
        const QString missing_ = ::ts::test::missingFixture(path);                                           \
        if (!missing_.isEmpty())                                                                             \
            QFAIL(qPrintable(missing_));                                                                     \
    } while (false)
#define TS_REQUIRE_SHARED_FIXTURES() TS_REQUIRE_FIXTURE(::ts::test::realFixture(QString()))
