#pragma once

// What the analysis suites share beyond tests/support: numpy's expected statistics and a Result's
// error text.
#include "ChildProcess.h"
#include "Fixtures.h"
#include "TestFiles.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace ts::test {

inline QJsonObject loadExpected()
{
    QFile f(QStringLiteral(TS_ANALYSIS_DATA "/expected_stats.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// QVERIFY2 evaluates its message even on success, so never call error() on a good Result there.
template <typename R> QString errText(const R& result)
{
    return result ? QString() : result.error().toString();
}

} // namespace ts::test
