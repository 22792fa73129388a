#pragma once

// What the convert suites share beyond tests/support: numpy, through Debian's python3, computes
// the expected values independently of the converter.
#include "ChildProcess.h"
#include "Fixtures.h"
#include "TestFiles.h"

#include <QString>
#include <QStringList>

namespace ts::test {

// Runs a script from tests/convert with /usr/bin/python3.
ProcessRun runPython(const QString& script, const QStringList& args);
bool havePythonNumpy();

} // namespace ts::test
