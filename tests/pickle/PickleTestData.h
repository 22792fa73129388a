#pragma once
// The checkpoints of tests/pickle/data and what data/manifest.json says about them (written by
// data/make_checkpoints.py; the "torch" section is what real torch 1.13.1 loaded from its files).

#include "checkpoint/Checkpoint.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTest>

namespace tspickle {

inline QString dataDir()
{
    return QStringLiteral(TS_PICKLE_DATA);
}

inline QString dataFile(const QString& relative)
{
    return dataDir() + QLatin1Char('/') + relative;
}

inline QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QJsonObject manifest()
{
    static const QJsonObject m =
        QJsonDocument::fromJson(fileBytes(dataFile(QStringLiteral("manifest.json")))).object();
    return m;
}

inline QStringList filesIn(const QString& folder)
{
    return QDir(dataFile(folder)).entryList(QDir::Files, QDir::Name);
}

// SHA-256 of tensor i's bytes as the checkpoint's location gives them (contiguous, little-endian).
inline QString tensorSha(const ts::Checkpoint& c, int i)
{
    const ts::TensorLocation where = c.location(i);
    QByteArray bytes(static_cast<qsizetype>(where.length), Qt::Uninitialized);
    if (!where.source->read(where.offset, std::as_writable_bytes(std::span(bytes.data(), bytes.size()))))
        return QStringLiteral("<read failed>");
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

// The tensors as "name dtype [shape] sha256" lines, sorted, for comparing with the manifest.
inline QStringList describeTensors(const ts::Checkpoint& c)
{
    QStringList lines;
    for (int i = 0; i < static_cast<int>(c.tensors().size()); ++i) {
        const ts::TensorInfo& t = c.tensors()[static_cast<std::size_t>(i)].info;
        QStringList dims;
        for (std::uint64_t d : t.shape)
            dims << QString::number(d);
        lines << QStringLiteral("%1 %2 [%3] %4")
                     .arg(t.name, ts::dtypeName(t.dtype), dims.join(QLatin1Char(',')), tensorSha(c, i));
    }
    lines.sort();
    return lines;
}

inline QStringList describeExpected(const QJsonObject& tensors)
{
    QStringList lines;
    for (auto it = tensors.begin(); it != tensors.end(); ++it) {
        const QJsonObject t = it.value().toObject();
        QStringList dims;
        for (const QJsonValue& d : t.value(QStringLiteral("shape")).toArray())
            dims << QString::number(d.toInteger());
        lines << QStringLiteral("%1 %2 [%3] %4")
                     .arg(it.key(), t.value(QStringLiteral("dtype")).toString(), dims.join(QLatin1Char(',')),
                          t.value(QStringLiteral("sha256")).toString());
    }
    lines.sort();
    return lines;
}

} // namespace tspickle
