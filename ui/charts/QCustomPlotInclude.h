#pragma once

// qcustomplot.h uses the `foreach` keyword in two templates, which QT_NO_FOREACH removes. A local
// range-for spelling keeps the project-wide ban without patching the system header.
#ifndef foreach
#define TS_LOCAL_FOREACH
#define foreach(variable, container) for (variable : container)
#endif
#include <qcustomplot.h>
#ifdef TS_LOCAL_FOREACH
#undef foreach
#undef TS_LOCAL_FOREACH
#endif
