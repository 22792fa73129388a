#include "Fixtures.h"

#include <QDir>
#include <QFileInfo>

namespace ts::test {

QString testDataDir()
{
    return QStringLiteral(TS_TEST_DATA);
}

QString conformanceDir()
{
    return testDataDir() + QStringLiteral("/conformance");
}

QString sharedDir()
{
    return QStringLiteral(TS_SHARED_DIR);
}

QString realFixture(const QString& name)
{
    return sharedDir() + QStringLiteral("/fixtures/real/") + name;
}

bool sharedFixturesPresent()
{
    return QFileInfo::exists(realFixture(QString()));
}

QString missingFixture(const QString& path)
{
    if (QFileInfo::exists(path))
        return {};
    if (!QFileInfo::exists(sharedDir()))
        return QStringLiteral("%1 is missing: the shared fixtures folder %2 does not exist (lay ../shared, "
                              "with fixtures/real, beside the project root)")
            .arg(QDir::cleanPath(path), sharedDir());
    return QStringLiteral("%1 is missing (the shared fixtures are in %2/fixtures/real)")
        .arg(QDir::cleanPath(path), sharedDir());
}

} // namespace ts::test
