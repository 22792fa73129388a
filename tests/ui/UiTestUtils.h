#pragma once

#include "ChildProcess.h"
#include "Fixtures.h"
#include "TestFiles.h"

#include <QAbstractItemModel>
#include <QFutureWatcher>
#include <QStringList>
#include <QTest>

namespace ts::test {

// The part of a widget named `name` (QObject::objectName): widgets name what a test drives rather
// than exposing a getter for each. A missing one ends the run naming it, since every check on it
// would fail anyway.
template <typename T> T* child(const QObject* parent, const char* name)
{
    T* found = parent->findChild<T*>(QLatin1String(name));
    if (!found)
        qFatal("%s has no %s named \"%s\"", parent->metaObject()->className(),
               T::staticMetaObject.className(), name);
    return found;
}

// True once every background job started under `root` has delivered its result: the widgets run
// each job behind a QFutureWatcher child that deletes itself once it has delivered. For
// QTRY_VERIFY (whose waits process the deferred deletes), e.g. before asserting that a stale
// result was dropped.
inline bool jobsDelivered(const QObject* root)
{
    return root->findChildren<QFutureWatcherBase*>().isEmpty();
}

// The one child of type T under `parent`, whatever its name (a view a widget holds once).
template <typename T> T* child(const QObject* parent)
{
    T* found = parent->findChild<T*>();
    if (!found)
        qFatal("%s has no %s", parent->metaObject()->className(), T::staticMetaObject.className());
    return found;
}

// Flattens a model into indented lines, one per row, columns joined by " | " (as hotspot's
// model tests do), so a whole tree compares as text.
inline void dumpModel(const QAbstractItemModel* model, const QModelIndex& parent, int depth, QStringList& out)
{
    for (int r = 0; r < model->rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(parent); ++c)
            cells << model->index(r, c, parent).data().toString();
        out << QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | "));
        dumpModel(model, model->index(r, 0, parent), depth + 1, out);
    }
}

inline QStringList dumpModel(const QAbstractItemModel* model)
{
    QStringList out;
    dumpModel(model, {}, 0, out);
    return out;
}

} // namespace ts::test
