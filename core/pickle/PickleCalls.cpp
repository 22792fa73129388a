#include "pickle/PickleCalls.h"

#include "pickle/PickleText.h"

namespace ts::pickle {
namespace {

bool isCallable(Kind k)
{
    return k == Kind::Global || k == Kind::Object;
}

} // namespace

const std::vector<ValueId>& PickleCalls::argList(ValueId args) const
{
    if (m_heap.isSequence(args))
        return m_heap.items(args);
    return m_noArgs;
}

ValueId PickleCalls::valueError(const QString& what, std::uint64_t offset)
{
    m_audit.add(QStringLiteral("PickleValueError"), Severity::Error,
                QStringLiteral("%1 at byte %2: %3; torch.load would stop here with an error")
                    .arg(m_where)
                    .arg(offset)
                    .arg(what),
                offset);
    return kNoValue;
}

ValueId PickleCalls::opaque(ValueId callee, ValueId args, std::uint64_t offset)
{
    ObjectRec o;
    o.callee = callee;
    o.args = args;
    o.offset = offset;
    return m_heap.object(o);
}

bool PickleCalls::uintSequence(ValueId seq, std::vector<std::uint64_t>& out) const
{
    if (!m_heap.isSequence(seq))
        return false;
    const std::vector<ValueId>& items = m_heap.items(seq);
    if (items.size() > m_limits.maxRank)
        return false;
    out.clear();
    for (ValueId v : items) {
        if (m_heap.kind(v) != Kind::Int || m_heap.at(v).number < 0)
            return false;
        out.push_back(static_cast<std::uint64_t>(m_heap.at(v).number));
    }
    return true;
}

ValueId PickleCalls::rebuildTensor(AllowedKind kind, const std::vector<ValueId>& args, std::uint64_t offset)
{
    const char* name = kind == AllowedKind::RebuildTensor     ? "_rebuild_tensor"
                       : kind == AllowedKind::RebuildTensorV2 ? "_rebuild_tensor_v2"
                                                              : "_rebuild_tensor_v3";
    const std::size_t needed = kind == AllowedKind::RebuildTensor     ? 4
                               : kind == AllowedKind::RebuildTensorV2 ? 6
                                                                      : 7;
    if (args.size() < needed || args.size() > needed + 1)
        return valueError(
            QStringLiteral("%1 is called with %2 arguments").arg(QLatin1String(name)).arg(args.size()),
            offset);
    if (m_heap.kind(args[0]) != Kind::Storage)
        return valueError(QStringLiteral("%1 is given no storage").arg(QLatin1String(name)), offset);
    TensorRec t;
    t.storage = args[0];
    t.offset = offset;
    t.dtype = m_heap.storageRec(args[0]).dtype;
    if (m_heap.kind(args[1]) != Kind::Int || m_heap.at(args[1]).number < 0)
        return valueError(
            QStringLiteral("%1 is given a storage offset that is no count").arg(QLatin1String(name)), offset);
    t.storageOffset = static_cast<std::uint64_t>(m_heap.at(args[1]).number);
    if (!uintSequence(args[2], t.shape) || !uintSequence(args[3], t.stride) ||
        t.shape.size() != t.stride.size())
        return valueError(
            QStringLiteral("%1 is given a size or stride that is no tuple of counts of the same "
                           "length (at most %2 dimensions)")
                .arg(QLatin1String(name))
                .arg(m_limits.maxRank),
            offset);
    if (kind != AllowedKind::RebuildTensor)
        t.requiresGrad = m_heap.kind(args[4]) == Kind::Bool && m_heap.at(args[4]).number != 0;
    if (kind == AllowedKind::RebuildTensorV3) {
        const ValueId d = args[6];
        if (m_heap.kind(d) != Kind::Global || m_heap.globalRef(d).verdict.kind != AllowedKind::Dtype)
            return valueError(QStringLiteral("_rebuild_tensor_v3 is given no dtype"), offset);
        t.dtype = m_heap.globalRef(d).verdict.dtype;
    }
    return m_heap.tensor(std::move(t));
}

ValueId PickleCalls::asParameter(ValueId tensor, ValueId requiresGrad, std::uint64_t offset)
{
    if (m_heap.kind(tensor) != Kind::Tensor)
        return opaque(kNoValue, tensor, offset); // a parameter of something else: kept, not shown
    TensorRec t = m_heap.tensorRec(tensor);
    t.parameter = true;
    t.requiresGrad = requiresGrad == kNoValue ||
                     (m_heap.kind(requiresGrad) == Kind::Bool && m_heap.at(requiresGrad).number);
    return m_heap.tensor(std::move(t));
}

ValueId PickleCalls::call(ValueId callee, ValueId args, std::uint64_t offset)
{
    const Kind ck = m_heap.kind(callee);
    if (!isCallable(ck))
        return valueError(QStringLiteral("a call of a value that is not callable"), offset);
    if (!m_heap.isSequence(args) && m_heap.kind(args) != Kind::Object)
        return valueError(QStringLiteral("a call whose arguments are not a tuple"), offset);
    if (ck != Kind::Global || m_heap.globalRef(callee).verdict.cls != GlobalClass::Allowed)
        return opaque(callee, args, offset);
    // A copy: the heap's containers move when it grows.
    const std::vector<ValueId> a = argList(args);
    switch (m_heap.globalRef(callee).verdict.kind) {
    case AllowedKind::OrderedDict: {
        ValueId d = m_heap.container(Kind::Dict, {});
        if (d == kNoValue || a.empty())
            return d;
        // OrderedDict([(k, v), ...]): protocol 0 and 1 write items as an argument.
        if (m_heap.isSequence(a[0])) {
            for (ValueId pair : m_heap.items(a[0])) {
                if (!m_heap.isSequence(pair) || m_heap.items(pair).size() != 2)
                    return valueError(QStringLiteral("OrderedDict is given items that are not pairs"),
                                      offset);
                const std::vector<ValueId> kv = m_heap.items(pair);
                if (!m_heap.append(d, kv))
                    return kNoValue;
            }
        }
        return d;
    }
    case AllowedKind::TorchSize:
        if (!a.empty() && m_heap.isSequence(a[0]))
            return m_heap.container(Kind::Tuple, m_heap.items(a[0]));
        return m_heap.container(Kind::Tuple, {});
    case AllowedKind::Device:
        return !a.empty() && m_heap.isStr(a[0]) ? a[0] : opaque(callee, args, offset);
    case AllowedKind::CodecsEncode: {
        // Protocol 2 writes bytes as _codecs.encode(text, "latin1").
        if (a.size() >= 1 && m_heap.isStr(a[0])) {
            const std::string encoding = a.size() >= 2 && m_heap.isStr(a[1]) ? m_heap.text(a[1]) : "utf-8";
            if (encoding == "latin1" || encoding == "latin-1" || encoding == "iso-8859-1") {
                if (auto bytes = utf8ToLatin1(m_heap.text(a[0])))
                    return m_heap.bytes(std::move(*bytes));
                return valueError(QStringLiteral("_codecs.encode is given text that is not Latin-1"), offset);
            }
            return m_heap.bytes(m_heap.text(a[0]));
        }
        return valueError(QStringLiteral("_codecs.encode is given no text"), offset);
    }
    case AllowedKind::ByteArray:
        if (!a.empty() && m_heap.kind(a[0]) == Kind::Bytes)
            return a[0];
        return m_heap.bytes({});
    case AllowedKind::Set:
        if (!a.empty() && (m_heap.isSequence(a[0]) || m_heap.kind(a[0]) == Kind::Set))
            return m_heap.container(Kind::Set, m_heap.items(a[0]));
        return m_heap.container(Kind::Set, {});
    case AllowedKind::RebuildTensor:
    case AllowedKind::RebuildTensorV2:
    case AllowedKind::RebuildTensorV3:
        return rebuildTensor(m_heap.globalRef(callee).verdict.kind, a, offset);
    case AllowedKind::RebuildParameter:
        if (a.size() < 3)
            return valueError(QStringLiteral("_rebuild_parameter is called with %1 arguments").arg(a.size()),
                              offset);
        return asParameter(a[0], a[1], offset);
    case AllowedKind::ParameterClass:
        return asParameter(a.empty() ? kNoValue : a[0], a.size() > 1 ? a[1] : kNoValue, offset);
    case AllowedKind::RebuildFromCpuTensor:
        return !a.empty() && m_heap.kind(a[0]) == Kind::Tensor ? a[0] : opaque(callee, args, offset);
    case AllowedKind::RebuildFromTypeV2: {
        // (func, new_type, args, state): func(*args), then the subclass and its state.
        if (a.size() != 4)
            return valueError(
                QStringLiteral("_rebuild_from_type_v2 is called with %1 arguments").arg(a.size()), offset);
        const ValueId result = call(a[0], a[2], offset);
        if (result == kNoValue || m_heap.kind(result) != Kind::Tensor)
            return result;
        const ValueId type = a[1];
        if (m_heap.kind(type) == Kind::Global &&
            m_heap.globalRef(type).verdict.kind == AllowedKind::ParameterClass)
            return asParameter(result, kNoValue, offset);
        return result;
    }
    default:
        return opaque(callee, args, offset);
    }
}

ValueId PickleCalls::newObject(ValueId cls, ValueId args, std::uint64_t offset)
{
    if (!isCallable(m_heap.kind(cls)))
        return valueError(QStringLiteral("NEWOBJ of a value that is not a class"), offset);
    if (m_heap.kind(cls) == Kind::Global && m_heap.globalRef(cls).verdict.cls == GlobalClass::Allowed) {
        switch (m_heap.globalRef(cls).verdict.kind) {
        case AllowedKind::ParameterClass:
        case AllowedKind::OrderedDict:
        case AllowedKind::Set:
        case AllowedKind::TorchSize:
            return call(cls, args, offset);
        default:
            break;
        }
    }
    return opaque(cls, args, offset);
}

bool PickleCalls::build(ValueId inst, ValueId state, std::uint64_t offset)
{
    switch (m_heap.kind(inst)) {
    case Kind::Object: {
        ObjectRec& o = m_heap.mutableObject(inst);
        o.state = state;
        return true;
    }
    case Kind::Dict:   // OrderedDict attributes such as a state dict's _metadata
    case Kind::Tensor: // tensor attributes (legacy BUILD of a torch.Tensor, subclass state)
        return true;
    default:
        if (m_heap.kind(state) == Kind::None)
            return true;
        valueError(QStringLiteral("BUILD of a value that takes no state"), offset);
        return false;
    }
}

} // namespace ts::pickle
