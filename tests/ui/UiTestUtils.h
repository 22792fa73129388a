#pragma once

#include <QAbstractItemModel>
#include <QFileInfo>
#include <QStringList>
#include <QTest>

// The shared real fixtures; a test that needs one fails loudly when they are missing rather
// than passing on nothing.
inline QString realFixture(const QString& name)
{
    return QStringLiteral(TS_SHARED_DIR "/fixtures/real/") + name;
}

#define REQUIRE_FIXTURE(path)                                                                                \
    do {                                                                                                     \
        if (!QFileInfo::exists(path))                                                                        \
            QFAIL(                                                                                           \
                qPrintable(QStringLiteral("the shared fixtures are missing: %1 (expected ../shared beside "  \
                                          "the project)")                                                    \
                               .arg(path)));                                                                 \
    } while (false)

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
