#pragma once

// The header-only models the architecture suites read: written once per test run by
// models/make_models.py (published shapes, sparse data; nothing downloaded), and small ones the
// tests write themselves to plant a missing layer or a lying config.
#include "format/HeaderSerializer.h"
#include "format/TensorInfo.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

namespace models {

// The folder make_models.py wrote `name` into; fails the test (QVERIFY in the caller) when empty.
inline QString folder(const QString& name)
{
    static std::unique_ptr<QTemporaryDir> dir;
    static bool written = false;
    if (!dir) {
        dir = std::make_unique<QTemporaryDir>();
        QProcess python;
        python.start(QStringLiteral("python3"), {QStringLiteral(TS_MODELS_SCRIPT), dir->path()});
        written = python.waitForFinished(120000) && python.exitStatus() == QProcess::NormalExit &&
                  python.exitCode() == 0;
        if (!written)
            qWarning("make_models.py failed: %s %s", python.readAllStandardError().constData(),
                     qPrintable(python.errorString()));
    }
    return written ? QDir(dir->path()).filePath(name) : QString();
}

struct Tensor {
    QString name;
    ts::Dtype dtype;
    std::vector<std::uint64_t> shape;
};

// A valid file of `tensors` whose data is left sparse, as make_models.py writes them.
inline bool writeHeaderOnly(const QString& path, const std::vector<Tensor>& tensors,
                            const std::optional<ts::Metadata>& metadata = std::nullopt)
{
    std::vector<ts::TensorInfo> infos;
    std::uint64_t offset = 0;
    for (const Tensor& t : tensors) {
        ts::TensorInfo info{t.name, t.dtype, t.shape, offset, offset};
        info.end =
            offset + (info.elementCount() * static_cast<std::uint64_t>(ts::dtypeBits(t.dtype)) + 7) / 8;
        offset = info.end;
        infos.push_back(std::move(info));
    }
    const QByteArray header = ts::serializeHeader(infos, metadata);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(header) != header.size())
        return false;
    return f.resize(header.size() + static_cast<qint64>(offset));
}

// A Llama-style decoder's tensors (modeling_llama.py names): `layers` blocks, the ones in `skip`
// left out, and block `noK`'s k_proj missing when it is not -1.
inline std::vector<Tensor> llama(int layers, std::vector<int> skip = {}, int noK = -1, bool lmHead = true,
                                 std::uint64_t hidden = 256, std::uint64_t kv = 64)
{
    using ts::Dtype;
    std::vector<Tensor> t{{QStringLiteral("model.embed_tokens.weight"), Dtype::BF16, {1000, hidden}}};
    for (int i = 0; i < layers; ++i) {
        if (std::find(skip.begin(), skip.end(), i) != skip.end())
            continue;
        const QString p = QStringLiteral("model.layers.%1.").arg(i);
        t.push_back({p + QStringLiteral("self_attn.q_proj.weight"), Dtype::BF16, {hidden, hidden}});
        if (i != noK)
            t.push_back({p + QStringLiteral("self_attn.k_proj.weight"), Dtype::BF16, {kv, hidden}});
        t.push_back({p + QStringLiteral("self_attn.v_proj.weight"), Dtype::BF16, {kv, hidden}});
        t.push_back({p + QStringLiteral("self_attn.o_proj.weight"), Dtype::BF16, {hidden, hidden}});
        t.push_back({p + QStringLiteral("mlp.gate_proj.weight"), Dtype::BF16, {512, hidden}});
        t.push_back({p + QStringLiteral("mlp.up_proj.weight"), Dtype::BF16, {512, hidden}});
        t.push_back({p + QStringLiteral("mlp.down_proj.weight"), Dtype::BF16, {hidden, 512}});
        t.push_back({p + QStringLiteral("input_layernorm.weight"), Dtype::BF16, {hidden}});
        t.push_back({p + QStringLiteral("post_attention_layernorm.weight"), Dtype::BF16, {hidden}});
    }
    t.push_back({QStringLiteral("model.norm.weight"), Dtype::BF16, {hidden}});
    if (lmHead)
        t.push_back({QStringLiteral("lm_head.weight"), Dtype::BF16, {1000, hidden}});
    return t;
}

inline bool writeJson(const QString& path, const QJsonObject& object)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(object).toJson()) > 0;
}

inline QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace models
