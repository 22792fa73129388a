#include "pickle/TensorNamer.h"

#include <QHash>

namespace ts::pickle {
namespace {

QString join(const QString& path, const QString& key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

bool isModuleContainer(const QString& key)
{
    return key == QLatin1String("_parameters") || key == QLatin1String("_buffers") ||
           key == QLatin1String("_modules");
}

} // namespace

void TensorNamer::name(ValueId root, const QString& prefix)
{
    if (root == kNoValue || m_stopped)
        return;
    visit(root, prefix, 0);
}

QString TensorNamer::keyText(ValueId key) const
{
    switch (m_heap.kind(key)) {
    case Kind::Str:
        return QString::fromStdString(m_heap.text(key));
    case Kind::Int:
        return QString::number(m_heap.at(key).number);
    case Kind::Bool:
        return m_heap.at(key).number ? QStringLiteral("True") : QStringLiteral("False");
    case Kind::None:
        return QStringLiteral("None");
    case Kind::Float:
        return QString::number(m_heap.floatValue(key));
    case Kind::Bytes:
        return QString::fromLatin1(m_heap.text(key).data(), static_cast<qsizetype>(m_heap.text(key).size()));
    default:
        return QStringLiteral("?");
    }
}

void TensorNamer::addTensor(ValueId v, const QString& path)
{
    if (m_out.size() >= m_limits.maxTensors) {
        m_audit.add(QStringLiteral("PickleLimit"), Severity::Warning,
                    QStringLiteral("the checkpoint names more than %1 tensors; the rest are not shown")
                        .arg(m_limits.maxTensors));
        m_stopped = true;
        return;
    }
    m_out.push_back(NamedTensor{path.isEmpty() ? QStringLiteral("tensor") : path, v});
}

void TensorNamer::visitDictItems(const std::vector<ValueId>& items, const QString& path, std::uint32_t depth,
                                 bool module)
{
    // A key given twice keeps its first place and its last value, as a Python dict does.
    std::vector<std::pair<QString, ValueId>> entries;
    QHash<QString, std::size_t> seen;
    for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
        const QString key = keyText(items[i]);
        if (auto it = seen.constFind(key); it != seen.constEnd()) {
            entries[*it].second = items[i + 1];
        } else {
            seen.insert(key, entries.size());
            entries.emplace_back(key, items[i + 1]);
        }
    }
    for (const auto& [key, value] : entries) {
        if (m_stopped)
            return;
        if (module && isModuleContainer(key))
            visit(value, path, depth + 1);
        else
            visit(value, join(path, key), depth + 1);
    }
}

void TensorNamer::visit(ValueId v, const QString& path, std::uint32_t depth)
{
    if (m_stopped || v == kNoValue || v >= m_heap.size())
        return;
    if (v >= m_onPath.size())
        m_onPath.resize(m_heap.size(), 0); // values made after this namer was
    if (++m_steps > m_limits.maxWalkSteps) {
        m_audit.add(
            QStringLiteral("PickleLimit"), Severity::Warning,
            QStringLiteral("naming the tensors stopped after %1 steps: the pickle shares containers so that "
                           "the same objects are reached by more paths than can be followed")
                .arg(m_limits.maxWalkSteps));
        m_stopped = true;
        return;
    }
    if (depth > m_limits.maxWalkDepth) {
        if (!m_depthNoted) {
            m_depthNoted = true;
            m_audit.add(
                QStringLiteral("PickleLimit"), Severity::Warning,
                QStringLiteral("containers nest deeper than %1 levels under \"%2\"; deeper ones are not "
                               "searched for tensors")
                    .arg(m_limits.maxWalkDepth)
                    .arg(path.left(80)));
        }
        return;
    }
    const Kind k = m_heap.kind(v);
    if (k == Kind::Tensor || k == Kind::Storage) {
        addTensor(v, path);
        return;
    }
    if (k != Kind::Tuple && k != Kind::List && k != Kind::Dict && k != Kind::Set && k != Kind::Object)
        return;
    if (m_onPath[v])
        return; // a cycle
    // A container reached by many paths is shared on purpose: following each path again and
    // again is how a few kilobytes become 2^40 names.
    if (++m_visits[v] > kMaxVisitsPerContainer) {
        if (!m_sharingNoted) {
            m_sharingNoted = true;
            m_audit.add(QStringLiteral("PickleLimit"), Severity::Warning,
                        QStringLiteral(
                            "a container is reached by more than %1 paths (under \"%2\"): the pickle "
                            "shares containers the way a decompression bomb does; the paths beyond are not "
                            "followed")
                            .arg(kMaxVisitsPerContainer)
                            .arg(path.left(80)));
        }
        return;
    }
    m_onPath[v] = 1;
    if (k == Kind::Dict) {
        visitDictItems(m_heap.items(v), path, depth, false);
    } else if (k == Kind::Object) {
        const ObjectRec& o = m_heap.objectRec(v);
        if (m_heap.kind(o.callee) == Kind::Global &&
            m_heap.globalRef(o.callee).verdict.kind == AllowedKind::RebuildUnsupported) {
            m_audit.add(
                QStringLiteral("UnsupportedTensor"), Severity::Warning,
                QStringLiteral("\"%1\" is rebuilt by %2 (a quantized, sparse, meta or NumPy-backed tensor): "
                               "it has no plain bytes to show or convert")
                    .arg(path, QString::fromStdString(m_heap.globalRef(o.callee).verdict.resolved)),
                o.offset, path, FindingKind::Note);
        } else {
            const bool hasState = o.state != kNoValue && m_heap.kind(o.state) != Kind::None;
            if (hasState && m_heap.kind(o.state) == Kind::Dict) {
                visitDictItems(m_heap.items(o.state), path, depth, true);
            } else if (hasState && m_heap.kind(o.state) == Kind::Tuple) {
                // (state, slotstate), as pickle's load_build takes it.
                for (ValueId part : m_heap.items(o.state)) {
                    if (m_heap.kind(part) == Kind::Dict)
                        visitDictItems(m_heap.items(part), path, depth, true);
                    else
                        visit(part, path, depth + 1);
                }
            } else if (hasState) {
                visit(o.state, path, depth + 1);
            } else if (m_heap.isSequence(o.args)) {
                const std::vector<ValueId>& args = m_heap.items(o.args);
                for (std::size_t i = 0; i < args.size() && !m_stopped; ++i)
                    visit(args[i], join(path, QString::number(i)), depth + 1);
            }
            if (o.appended != kNoValue)
                visit(o.appended, path, depth + 1);
        }
    } else {
        const std::vector<ValueId>& items = m_heap.items(v);
        for (std::size_t i = 0; i < items.size() && !m_stopped; ++i)
            visit(items[i], join(path, QString::number(i)), depth + 1);
    }
    m_onPath[v] = 0;
}

} // namespace ts::pickle
