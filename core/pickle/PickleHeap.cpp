#include "pickle/PickleHeap.h"

#include <bit>
#include <limits>

namespace ts::pickle {

bool PickleHeap::charge(std::uint64_t bytes)
{
    if (m_exhausted || bytes > m_budget - m_used) {
        m_exhausted = true;
        return false;
    }
    m_used += bytes;
    return true;
}

ValueId PickleHeap::add(Kind kind, std::uint32_t ref, std::int64_t number, std::uint64_t extraBytes)
{
    if (m_values.size() >= std::numeric_limits<ValueId>::max() - 1 || !charge(sizeof(Value) + extraBytes))
        return kNoValue;
    m_values.push_back(Value{kind, ref, number});
    return static_cast<ValueId>(m_values.size() - 1);
}

ValueId PickleHeap::boolean(bool b)
{
    return add(Kind::Bool, 0, b ? 1 : 0, 0);
}

ValueId PickleHeap::integer(std::int64_t v)
{
    return add(Kind::Int, 0, v, 0);
}

ValueId PickleHeap::bigInteger(std::string littleEndianBytes)
{
    if (!charge(littleEndianBytes.size() + sizeof(std::string)))
        return kNoValue;
    m_texts.push_back(std::move(littleEndianBytes));
    return add(Kind::BigInt, static_cast<std::uint32_t>(m_texts.size() - 1), 0, 0);
}

ValueId PickleHeap::floating(double v)
{
    return add(Kind::Float, 0, std::bit_cast<std::int64_t>(v), 0);
}

double PickleHeap::floatValue(ValueId id) const
{
    const Value& v = m_values[id];
    if (v.kind == Kind::Float)
        return std::bit_cast<double>(v.number);
    return static_cast<double>(v.number);
}

ValueId PickleHeap::str(std::string utf8)
{
    if (!charge(utf8.size() + sizeof(std::string)))
        return kNoValue;
    m_texts.push_back(std::move(utf8));
    return add(Kind::Str, static_cast<std::uint32_t>(m_texts.size() - 1), 0, 0);
}

ValueId PickleHeap::bytes(std::string data)
{
    if (!charge(data.size() + sizeof(std::string)))
        return kNoValue;
    m_texts.push_back(std::move(data));
    return add(Kind::Bytes, static_cast<std::uint32_t>(m_texts.size() - 1), 0, 0);
}

ValueId PickleHeap::container(Kind kind, std::vector<ValueId> items)
{
    if (!charge(items.capacity() * sizeof(ValueId) + sizeof(std::vector<ValueId>)))
        return kNoValue;
    m_items.push_back(std::move(items));
    return add(kind, static_cast<std::uint32_t>(m_items.size() - 1), 0, 0);
}

bool PickleHeap::append(ValueId container, std::span<const ValueId> items)
{
    std::vector<ValueId>& target = m_items[m_values[container].ref];
    const std::size_t before = target.capacity();
    if (!charge(items.size() * sizeof(ValueId)))
        return false;
    target.insert(target.end(), items.begin(), items.end());
    // Growth beyond what was charged (the vector doubles) is charged too.
    if (target.capacity() > before + items.size())
        return charge((target.capacity() - before - items.size()) * sizeof(ValueId));
    return true;
}

ValueId PickleHeap::global(GlobalRef g)
{
    if (!charge(g.module.size() + g.name.size() + g.verdict.resolved.size() + sizeof(GlobalRef)))
        return kNoValue;
    m_globals.push_back(std::move(g));
    return add(Kind::Global, static_cast<std::uint32_t>(m_globals.size() - 1), 0, 0);
}

ValueId PickleHeap::object(ObjectRec o)
{
    if (!charge(sizeof(ObjectRec)))
        return kNoValue;
    m_objects.push_back(o);
    return add(Kind::Object, static_cast<std::uint32_t>(m_objects.size() - 1), 0, 0);
}

ValueId PickleHeap::storage(StorageRec s)
{
    if (!charge(sizeof(StorageRec) + s.key.size() + s.location.size() + s.rootKey.size()))
        return kNoValue;
    m_storages.push_back(std::move(s));
    return add(Kind::Storage, static_cast<std::uint32_t>(m_storages.size() - 1), 0, 0);
}

ValueId PickleHeap::tensor(TensorRec t)
{
    if (!charge(sizeof(TensorRec) + (t.shape.size() + t.stride.size()) * sizeof(std::uint64_t)))
        return kNoValue;
    m_tensors.push_back(std::move(t));
    return add(Kind::Tensor, static_cast<std::uint32_t>(m_tensors.size() - 1), 0, 0);
}

std::optional<std::string> keyText(const PickleHeap& heap, ValueId v)
{
    switch (heap.kind(v)) {
    case Kind::Str:
    case Kind::Bytes:
        return heap.text(v);
    case Kind::Int:
        return std::to_string(heap.at(v).number);
    default:
        return std::nullopt;
    }
}

} // namespace ts::pickle
