#pragma once

#include "pickle/PickleValue.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts::pickle {

// Where the values of one checkpoint's pickles live. Everything is counted against one budget
// (PickleLimits::maxHeapBytes); an allocation past it fails and the reader stops with a
// sentence instead of growing without bound.
class PickleHeap {
public:
    explicit PickleHeap(std::uint64_t budgetBytes) : m_budget(budgetBytes) {}

    // Each returns kNoValue when the budget is spent.
    ValueId none() { return m_none; }
    ValueId boolean(bool b);
    ValueId integer(std::int64_t v);
    ValueId bigInteger(std::string littleEndianBytes);
    ValueId floating(double v);
    ValueId str(std::string utf8);
    ValueId bytes(std::string data);
    ValueId container(Kind kind, std::vector<ValueId> items);
    ValueId global(GlobalRef g);
    ValueId object(ObjectRec o);
    ValueId storage(StorageRec s);
    ValueId tensor(TensorRec t);

    // Adds to a List, Dict (key, value pairs) or Set; false when the budget is spent.
    bool append(ValueId container, std::span<const ValueId> items);

    const Value& at(ValueId id) const { return m_values[id]; }
    Kind kind(ValueId id) const { return id == kNoValue ? Kind::None : m_values[id].kind; }
    std::size_t size() const { return m_values.size(); }
    const std::string& text(ValueId id) const { return m_texts[m_values[id].ref]; }
    const std::vector<ValueId>& items(ValueId id) const { return m_items[m_values[id].ref]; }
    std::vector<ValueId>& mutableItems(ValueId id) { return m_items[m_values[id].ref]; }
    const GlobalRef& globalRef(ValueId id) const { return m_globals[m_values[id].ref]; }
    const ObjectRec& objectRec(ValueId id) const { return m_objects[m_values[id].ref]; }
    ObjectRec& mutableObject(ValueId id) { return m_objects[m_values[id].ref]; }
    const StorageRec& storageRec(ValueId id) const { return m_storages[m_values[id].ref]; }
    const TensorRec& tensorRec(ValueId id) const { return m_tensors[m_values[id].ref]; }
    double floatValue(ValueId id) const;

    bool isStr(ValueId id) const { return kind(id) == Kind::Str; }
    bool isInt(ValueId id) const { return kind(id) == Kind::Int || kind(id) == Kind::Bool; }
    bool isSequence(ValueId id) const { return kind(id) == Kind::Tuple || kind(id) == Kind::List; }

    std::uint64_t bytesUsed() const { return m_used; }
    bool exhausted() const { return m_exhausted; }

private:
    ValueId add(Kind kind, std::uint32_t ref, std::int64_t number, std::uint64_t extraBytes);
    bool charge(std::uint64_t bytes);

    std::uint64_t m_budget;
    std::uint64_t m_used = 0;
    bool m_exhausted = false;
    std::vector<Value> m_values{Value{}}; // value 0 is None
    ValueId m_none = 0;
    std::vector<std::string> m_texts;
    std::vector<std::vector<ValueId>> m_items;
    std::vector<GlobalRef> m_globals;
    std::vector<ObjectRec> m_objects;
    std::vector<StorageRec> m_storages;
    std::vector<TensorRec> m_tensors;
};

// A persistent id's key (a storage key, a location, a type name) as text: strings and bytes as
// they are, integers in decimal; nullopt for anything else. The zip, legacy and tar layouts share it.
std::optional<std::string> keyText(const PickleHeap& heap, ValueId v);

} // namespace ts::pickle
