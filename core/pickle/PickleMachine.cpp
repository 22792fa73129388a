#include "pickle/PickleMachine.h"

#include "pickle/PickleCalls.h"
#include "pickle/PickleOpcodes.h"
#include "pickle/PickleText.h"

#include <bit>
#include <cstring>

namespace ts::pickle {

bool looksLikePickle(std::span<const std::byte> bytes)
{
    return bytes.size() >= 4 && static_cast<std::uint8_t>(bytes[0]) == op::PROTO &&
           static_cast<std::uint8_t>(bytes[1]) >= 2 && static_cast<std::uint8_t>(bytes[1]) <= 5 &&
           static_cast<std::uint8_t>(bytes.back()) == op::STOP;
}

// The state of one run. Faults are reported with fault() and end the loop.
class PickleMachine::Run {
public:
    Run(PickleHeap& heap, PickleAudit& audit, const PickleLimits& limits, const PickleSource& src,
        PersistentLoader* loader)
        : m_heap(heap), m_audit(audit), m_limits(limits), m_src(src), m_loader(loader),
          m_calls(heap, audit, limits, src.where)
    {
    }

    PickleRun execute(std::uint64_t start);

private:
    // --- reading the stream ---
    std::uint64_t size() const { return m_src.bytes.size(); }
    std::uint64_t abs(std::uint64_t pos) const { return m_src.base + pos; }
    std::uint8_t byteAt(std::uint64_t pos) const { return static_cast<std::uint8_t>(m_src.bytes[pos]); }
    bool need(std::uint64_t n, const char* what);
    std::uint64_t readUInt(int n); // little-endian, after need()
    bool readLine(std::string_view& line);
    bool readCounted(ArgKind kind, std::string_view& out, const char* what);

    // --- the stack ---
    std::size_t fence() const { return m_marks.empty() ? 0 : m_marks.back(); }
    bool push(ValueId v);
    bool pop(ValueId& v);
    bool popMark(std::vector<ValueId>& items);
    bool top(ValueId& v);

    bool fault(const char* code, const QString& message);
    bool step(std::uint8_t code);
    bool global(const std::string& module, const std::string& name, ValueId& out);
    bool persistent(ValueId pid);
    bool memoPut(std::uint64_t index);
    bool memoGet(std::uint64_t index);
    void salvage(PickleRun& run);

    PickleHeap& m_heap;
    PickleAudit& m_audit;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
    const PickleSource& m_src;
    PersistentLoader* m_loader;
    PickleCalls m_calls;

    std::uint64_t m_pos = 0;
    std::uint64_t m_opAt = 0; // where the current opcode starts
    std::vector<ValueId> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<std::uint64_t, ValueId> m_memo;
    bool m_stopped = false;
    bool m_done = false;
    bool m_hugeMemoNoted = false;
    int m_protocol = 0;
    std::uint64_t m_opcodes = 0;
    ValueId m_result = kNoValue;
    std::vector<std::pair<ValueId, std::uint64_t>> m_nested;
};

PickleMachine::PickleMachine(PickleHeap& heap, PickleAudit& audit, const PickleLimits& limits)
    : m_heap(heap), m_audit(audit), m_limits(limits)
{
}

PickleRun PickleMachine::run(const PickleSource& source, std::uint64_t start, PersistentLoader* loader)
{
    Run r(m_heap, m_audit, m_limits, source, loader);
    return r.execute(start);
}

bool PickleMachine::Run::fault(const char* code, const QString& message)
{
    m_audit.add(QLatin1String(code), Severity::Error,
                QStringLiteral("%1 at byte %2 (%3 byte %4): %5")
                    .arg(m_src.where)
                    .arg(abs(m_opAt))
                    .arg(opcodeInfo(byteAt(m_opAt)).name ? QLatin1String(opcodeInfo(byteAt(m_opAt)).name)
                                                         : QLatin1String("opcode"))
                    .arg(m_opAt)
                    .arg(message),
                abs(m_opAt));
    m_stopped = true;
    return false;
}

bool PickleMachine::Run::need(std::uint64_t n, const char* what)
{
    if (n <= size() - m_pos)
        return true;
    return fault("PickleLengthPastEnd", QStringLiteral("%1 needs %2 bytes, only %3 are left")
                                            .arg(QLatin1String(what))
                                            .arg(n)
                                            .arg(size() - m_pos));
}

std::uint64_t PickleMachine::Run::readUInt(int n)
{
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
        v |= static_cast<std::uint64_t>(byteAt(m_pos + static_cast<std::uint64_t>(i))) << (8 * i);
    m_pos += static_cast<std::uint64_t>(n);
    return v;
}

bool PickleMachine::Run::readLine(std::string_view& line)
{
    const auto* begin = reinterpret_cast<const char*>(m_src.bytes.data()) + m_pos;
    const void* nl = std::memchr(begin, '\n', size() - m_pos);
    if (!nl) {
        return fault("PickleTruncated",
                     QStringLiteral("the line argument has no end: the pickle stops %1 bytes later")
                         .arg(size() - m_pos));
    }
    const auto length = static_cast<std::uint64_t>(static_cast<const char*>(nl) - begin);
    line = std::string_view(begin, length);
    m_pos += length + 1;
    return true;
}

bool PickleMachine::Run::readCounted(ArgKind kind, std::string_view& out, const char* what)
{
    const int width = kind == ArgKind::Bytes1 ? 1 : kind == ArgKind::Bytes8 ? 8 : 4;
    if (!need(static_cast<std::uint64_t>(width), what))
        return false;
    std::uint64_t length = readUInt(width);
    if (kind == ArgKind::Bytes4Signed && (length & 0x80000000u))
        return fault("PickleValueError", QStringLiteral("%1 has a negative length").arg(QLatin1String(what)));
    if (!need(length, what))
        return false;
    out = std::string_view(reinterpret_cast<const char*>(m_src.bytes.data()) + m_pos, length);
    m_pos += length;
    return true;
}

bool PickleMachine::Run::push(ValueId v)
{
    if (v == kNoValue) {
        if (!m_stopped)
            fault("PickleLimit",
                  QStringLiteral("the values built so far use %1 bytes, the most Tensorscope spends "
                                 "on one checkpoint")
                      .arg(m_heap.bytesUsed()));
        return false;
    }
    if (m_stack.size() >= m_limits.maxStack)
        return fault(
            "PickleLimit",
            QStringLiteral("the stack holds %1 entries, more than any checkpoint needs").arg(m_stack.size()));
    m_stack.push_back(v);
    return true;
}

bool PickleMachine::Run::pop(ValueId& v)
{
    if (m_stack.size() <= fence())
        return fault("PickleStackFault", m_stack.empty()
                                             ? QStringLiteral("the stack is empty")
                                             : QStringLiteral("nothing above the last MARK to take"));
    v = m_stack.back();
    m_stack.pop_back();
    return true;
}

bool PickleMachine::Run::top(ValueId& v)
{
    if (m_stack.size() <= fence())
        return fault("PickleStackFault", m_stack.empty() ? QStringLiteral("the stack is empty")
                                                         : QStringLiteral("nothing above the last MARK"));
    v = m_stack.back();
    return true;
}

bool PickleMachine::Run::popMark(std::vector<ValueId>& items)
{
    if (m_marks.empty())
        return fault("PickleStackFault", QStringLiteral("no MARK to take the items from"));
    const std::size_t mark = m_marks.back();
    m_marks.pop_back();
    items.assign(m_stack.begin() + static_cast<std::ptrdiff_t>(mark), m_stack.end());
    m_stack.resize(mark);
    return true;
}

bool PickleMachine::Run::global(const std::string& module, const std::string& name, ValueId& out)
{
    GlobalRef g;
    g.module = module;
    g.name = name;
    g.verdict = classifyGlobal(module, name);
    g.offset = abs(m_opAt);
    m_audit.noteGlobal(module, name, g.verdict, abs(m_opAt), m_src.where, m_src.readByTorch);
    out = m_heap.global(std::move(g));
    return out != kNoValue || push(kNoValue);
}

bool PickleMachine::Run::persistent(ValueId pid)
{
    if (!m_loader)
        return fault(
            "PickleValueError",
            QStringLiteral("a persistent id where torch.load has no persistent_load: Python stops here"));
    const ValueId v = m_loader->load(m_heap, pid, abs(m_opAt), m_audit);
    if (v == kNoValue) {
        m_stopped = true;
        return false;
    }
    return push(v);
}

bool PickleMachine::Run::memoPut(std::uint64_t index)
{
    ValueId v = kNoValue;
    if (!top(v))
        return false;
    if (m_memo.size() >= m_limits.maxMemo && !m_memo.contains(index))
        return fault(
            "PickleLimit",
            QStringLiteral("the memo holds %1 entries, more than any checkpoint needs").arg(m_memo.size()));
    if (index > m_memo.size() + (1u << 20) && !m_hugeMemoNoted) {
        m_hugeMemoNoted = true;
        m_audit.add(
            QStringLiteral("PickleMemoIndex"), Severity::Warning,
            QStringLiteral("%1 stores memo entry %2 at byte %3 with only %4 entries before it: Python's "
                           "unpickler sizes its memo for the largest index (%5 bytes here) and fails; "
                           "pickle writers number entries from 0")
                .arg(m_src.where)
                .arg(index)
                .arg(abs(m_opAt))
                .arg(m_memo.size())
                .arg(index * 16),
            abs(m_opAt));
    }
    m_memo[index] = v;
    return true;
}

bool PickleMachine::Run::memoGet(std::uint64_t index)
{
    const auto it = m_memo.find(index);
    if (it == m_memo.end())
        return fault("PickleMemoFault", QStringLiteral("memo entry %1 was never stored").arg(index));
    return push(it->second);
}

PickleRun PickleMachine::Run::execute(std::uint64_t start)
{
    m_pos = start;
    while (!m_stopped && !m_done) {
        if (m_pos >= size()) {
            m_opAt = m_pos > 0 ? m_pos - 1 : 0;
            fault("PickleTruncated", QStringLiteral("the pickle ends before its STOP opcode"));
            break;
        }
        m_opAt = m_pos;
        const std::uint8_t code = byteAt(m_pos++);
        ++m_opcodes;
        if (!step(code))
            break;
    }
    PickleRun run;
    run.completed = m_done;
    run.result = m_result;
    run.end = m_pos;
    run.protocol = m_protocol;
    run.nestedPickles = std::move(m_nested);
    if (!m_done)
        salvage(run);
    return run;
}

void PickleMachine::Run::salvage(PickleRun& run)
{
    // Items above a mark that sits right above a dict are that dict's pending SETITEMS.
    std::size_t next = 0;
    for (std::size_t i = 0; i < m_stack.size(); ++i) {
        while (next < m_marks.size() && m_marks[next] <= i)
            ++next;
        const ValueId v = m_stack[i];
        const bool dictBelowMark =
            m_heap.kind(v) == Kind::Dict && next < m_marks.size() && m_marks[next] == i + 1;
        if (!dictBelowMark) {
            run.salvage.push_back(v);
            continue;
        }
        const std::size_t end = next + 1 < m_marks.size() ? m_marks[next + 1] : m_stack.size();
        std::vector<ValueId> items = m_heap.items(v);
        for (std::size_t k = i + 1; k + 1 < end; k += 2) {
            items.push_back(m_stack[k]);
            items.push_back(m_stack[k + 1]);
        }
        // The run is over: the dict may take its pending entries in place.
        run.salvage.push_back(v);
        m_heap.mutableItems(v) = std::move(items);
        i = end - 1;
    }
}

bool PickleMachine::Run::step(std::uint8_t code)
{
    ValueId a = kNoValue;
    ValueId b = kNoValue;
    std::vector<ValueId> items;
    std::string_view text;
    switch (code) {
    case op::PROTO: {
        if (!need(1, "PROTO"))
            return false;
        const int version = static_cast<int>(readUInt(1));
        if (version > 5)
            return fault("PickleProtocol",
                         QStringLiteral("protocol %1 does not exist (the newest is 5); Python "
                                        "refuses the pickle")
                             .arg(version));
        if (m_opcodes > 1) {
            m_audit.add(
                QStringLiteral("PickleProtocol"), Severity::Warning,
                QStringLiteral("%1 declares its protocol again at byte %2 (PROTO %3): only a tampered pickle "
                               "does that")
                    .arg(m_src.where)
                    .arg(abs(m_opAt))
                    .arg(version),
                abs(m_opAt));
        } else {
            m_protocol = version;
        }
        return true;
    }
    case op::FRAME:
        if (!need(8, "FRAME"))
            return false;
        return need(readUInt(8), "the FRAME");
    case op::STOP:
        if (!pop(a))
            return false;
        m_result = a;
        m_done = true;
        return true;
    case op::MARK:
        if (m_marks.size() + m_stack.size() >= m_limits.maxStack)
            return fault("PickleLimit", QStringLiteral("more MARKs than any checkpoint needs"));
        m_marks.push_back(m_stack.size());
        return true;
    case op::POP:
        if (m_stack.size() > fence()) {
            m_stack.pop_back();
            return true;
        }
        if (!m_marks.empty()) { // CPython's load_pop drops the mark instead
            m_marks.pop_back();
            return true;
        }
        return pop(a);
    case op::POP_MARK:
        return popMark(items);
    case op::DUP:
        return top(a) && push(a);
    case op::NONE:
        return push(m_heap.none());
    case op::NEWTRUE:
    case op::NEWFALSE:
        return push(m_heap.boolean(code == op::NEWTRUE));
    case op::BININT:
        if (!need(4, "BININT"))
            return false;
        return push(m_heap.integer(static_cast<std::int32_t>(readUInt(4))));
    case op::BININT1:
        if (!need(1, "BININT1"))
            return false;
        return push(m_heap.integer(static_cast<std::int64_t>(readUInt(1))));
    case op::BININT2:
        if (!need(2, "BININT2"))
            return false;
        return push(m_heap.integer(static_cast<std::int64_t>(readUInt(2))));
    case op::INT:
    case op::LONG: {
        if (!readLine(text))
            return false;
        if (code == op::INT && (text == "00" || text == "01"))
            return push(m_heap.boolean(text == "01"));
        const auto d = decodeDecimal(text);
        if (!d)
            return fault("PickleValueError", QStringLiteral("the integer argument is not a number"));
        return push(d->fits ? m_heap.integer(d->value) : m_heap.bigInteger(d->littleEndian));
    }
    case op::LONG1:
    case op::LONG4:
        if (!readCounted(code == op::LONG1 ? ArgKind::Bytes1 : ArgKind::Bytes4Signed, text, "LONG"))
            return false;
        if (littleEndianFitsInt64(text))
            return push(m_heap.integer(littleEndianToInt64(text)));
        return push(m_heap.bigInteger(std::string(text)));
    case op::FLOAT: {
        if (!readLine(text))
            return false;
        const auto d = decodeFloat(text);
        if (!d)
            return fault("PickleValueError", QStringLiteral("the float argument is not a number"));
        return push(m_heap.floating(*d));
    }
    case op::BINFLOAT: {
        if (!need(8, "BINFLOAT"))
            return false;
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits = (bits << 8) | byteAt(m_pos + static_cast<std::uint64_t>(i));
        m_pos += 8;
        return push(m_heap.floating(std::bit_cast<double>(bits)));
    }
    case op::STRING: {
        if (!readLine(text))
            return false;
        auto s = decodeQuotedString(text);
        if (!s)
            return fault("PickleValueError", QStringLiteral("the STRING argument is not a quoted string"));
        return push(m_heap.str(std::move(*s)));
    }
    case op::UNICODE: {
        if (!readLine(text))
            return false;
        auto s = decodeRawUnicodeEscape(text);
        if (!s)
            return fault("PickleValueError", QStringLiteral("the UNICODE argument has a broken escape"));
        return push(m_heap.str(std::move(*s)));
    }
    case op::BINSTRING:
    case op::SHORT_BINSTRING:
    case op::BINUNICODE:
    case op::SHORT_BINUNICODE:
    case op::BINUNICODE8:
        if (!readCounted(opcodeInfo(code).arg, text, opcodeInfo(code).name))
            return false;
        return push(m_heap.str(std::string(text)));
    case op::BINBYTES:
    case op::SHORT_BINBYTES:
    case op::BINBYTES8:
    case op::BYTEARRAY8: {
        const std::uint64_t at = abs(m_pos);
        if (!readCounted(opcodeInfo(code).arg, text, opcodeInfo(code).name))
            return false;
        const ValueId v = m_heap.bytes(std::string(text));
        if (v != kNoValue &&
            looksLikePickle(std::span(reinterpret_cast<const std::byte*>(text.data()), text.size())) &&
            m_nested.size() < 64)
            m_nested.emplace_back(
                v, at + static_cast<std::uint64_t>(opcodeInfo(code).arg == ArgKind::Bytes1   ? 1
                                                   : opcodeInfo(code).arg == ArgKind::Bytes8 ? 8
                                                                                             : 4));
        return push(v);
    }
    case op::EMPTY_TUPLE:
        return push(m_heap.container(Kind::Tuple, {}));
    case op::EMPTY_LIST:
        return push(m_heap.container(Kind::List, {}));
    case op::EMPTY_DICT:
        return push(m_heap.container(Kind::Dict, {}));
    case op::EMPTY_SET:
        return push(m_heap.container(Kind::Set, {}));
    case op::TUPLE1:
    case op::TUPLE2:
    case op::TUPLE3: {
        const std::size_t n = code == op::TUPLE1 ? 1 : code == op::TUPLE2 ? 2 : 3;
        if (m_stack.size() < fence() + n)
            return fault("PickleStackFault",
                         QStringLiteral("%1 items are needed above the last MARK").arg(n));
        items.assign(m_stack.end() - static_cast<std::ptrdiff_t>(n), m_stack.end());
        m_stack.resize(m_stack.size() - n);
        return push(m_heap.container(Kind::Tuple, std::move(items)));
    }
    case op::TUPLE:
        return popMark(items) && push(m_heap.container(Kind::Tuple, std::move(items)));
    case op::LIST:
        return popMark(items) && push(m_heap.container(Kind::List, std::move(items)));
    case op::FROZENSET:
        return popMark(items) && push(m_heap.container(Kind::Set, std::move(items)));
    case op::DICT:
        if (!popMark(items))
            return false;
        if (items.size() % 2)
            return fault("PickleStackFault", QStringLiteral("an odd number of items for DICT"));
        return push(m_heap.container(Kind::Dict, std::move(items)));
    case op::APPEND:
    case op::APPENDS:
    case op::SETITEM:
    case op::SETITEMS:
    case op::ADDITEMS: {
        if (code == op::APPEND) {
            if (!pop(a))
                return false;
            items.push_back(a);
        } else if (code == op::SETITEM) {
            if (!pop(b) || !pop(a))
                return false;
            items = {a, b};
        } else if (!popMark(items)) {
            return false;
        }
        const bool pairs = code == op::SETITEM || code == op::SETITEMS;
        if (pairs && items.size() % 2)
            return fault("PickleStackFault", QStringLiteral("an odd number of items for SETITEMS"));
        ValueId target = kNoValue;
        if (!top(target))
            return false;
        const Kind k = m_heap.kind(target);
        const Kind wanted = pairs ? Kind::Dict : code == op::ADDITEMS ? Kind::Set : Kind::List;
        if (k == wanted)
            return m_heap.append(target, items) || push(kNoValue);
        if (k == Kind::Object) {
            // obj.append / obj[k] = v / obj.add on an object of unknown code: kept, not run.
            ObjectRec& o = m_heap.mutableObject(target);
            if (o.appended == kNoValue) {
                const ValueId c = m_heap.container(pairs ? Kind::Dict : Kind::List, {});
                if (c == kNoValue)
                    return push(kNoValue);
                m_heap.mutableObject(target).appended = c;
            }
            return m_heap.append(m_heap.objectRec(target).appended, items) || push(kNoValue);
        }
        return fault("PickleValueError", QStringLiteral("%1 on a value that is not a %2")
                                             .arg(QLatin1String(opcodeInfo(code).name),
                                                  pairs ? QStringLiteral("dict") : QStringLiteral("list")));
    }
    case op::GLOBAL:
    case op::INST: {
        std::string_view module;
        std::string_view name;
        if (!readLine(module) || !readLine(name))
            return false;
        if (!global(std::string(module), std::string(name), a))
            return false;
        if (code == op::GLOBAL)
            return push(a);
        if (!popMark(items))
            return false;
        const ValueId args = m_heap.container(Kind::Tuple, std::move(items));
        if (args == kNoValue)
            return push(kNoValue);
        b = m_calls.call(a, args, abs(m_opAt));
        return b != kNoValue ? push(b) : (m_stopped = true, false);
    }
    case op::STACK_GLOBAL: {
        if (!pop(b) || !pop(a))
            return false;
        if (!m_heap.isStr(a) || !m_heap.isStr(b))
            return fault("PickleValueError",
                         QStringLiteral("STACK_GLOBAL needs two str values (module, name)"));
        ValueId g = kNoValue;
        return global(m_heap.text(a), m_heap.text(b), g) && push(g);
    }
    case op::REDUCE: {
        if (!pop(b) || !pop(a))
            return false;
        const ValueId r = m_calls.call(a, b, abs(m_opAt));
        return r != kNoValue ? push(r) : (m_stopped = true, false);
    }
    case op::OBJ: {
        if (!popMark(items))
            return false;
        if (items.empty())
            return fault("PickleStackFault", QStringLiteral("OBJ needs a class after its MARK"));
        const ValueId cls = items.front();
        items.erase(items.begin());
        const ValueId args = m_heap.container(Kind::Tuple, std::move(items));
        if (args == kNoValue)
            return push(kNoValue);
        const ValueId r = m_calls.call(cls, args, abs(m_opAt));
        return r != kNoValue ? push(r) : (m_stopped = true, false);
    }
    case op::NEWOBJ:
    case op::NEWOBJ_EX: {
        ValueId kwargs = kNoValue;
        if (code == op::NEWOBJ_EX && !pop(kwargs))
            return false;
        if (!pop(b) || !pop(a))
            return false;
        const ValueId r = m_calls.newObject(a, b, abs(m_opAt));
        return r != kNoValue ? push(r) : (m_stopped = true, false);
    }
    case op::BUILD:
        if (!pop(b) || !top(a))
            return false;
        return m_calls.build(a, b, abs(m_opAt)) || (m_stopped = true, false);
    case op::BINPERSID:
        return pop(a) && persistent(a);
    case op::PERSID: {
        if (!readLine(text))
            return false;
        const ValueId pid = m_heap.str(std::string(text));
        return (pid != kNoValue || push(kNoValue)) && persistent(pid);
    }
    case op::PUT: {
        if (!readLine(text))
            return false;
        const auto d = decodeDecimal(text);
        if (!d || !d->fits || d->value < 0)
            return fault("PickleValueError", QStringLiteral("the PUT index is not a count"));
        return memoPut(static_cast<std::uint64_t>(d->value));
    }
    case op::BINPUT:
        return need(1, "BINPUT") && memoPut(readUInt(1));
    case op::LONG_BINPUT:
        return need(4, "LONG_BINPUT") && memoPut(readUInt(4));
    case op::MEMOIZE:
        return memoPut(m_memo.size());
    case op::GET: {
        if (!readLine(text))
            return false;
        const auto d = decodeDecimal(text);
        if (!d || !d->fits || d->value < 0)
            return fault("PickleValueError", QStringLiteral("the GET index is not a count"));
        return memoGet(static_cast<std::uint64_t>(d->value));
    }
    case op::BINGET:
        return need(1, "BINGET") && memoGet(readUInt(1));
    case op::LONG_BINGET:
        return need(4, "LONG_BINGET") && memoGet(readUInt(4));
    case op::EXT1:
    case op::EXT2:
    case op::EXT4:
        return fault(
            "PickleValueError",
            QStringLiteral(
                "an extension code (copyreg's registry, empty in a torch process): Python stops here"));
    case op::NEXT_BUFFER:
    case op::READONLY_BUFFER:
        return fault(
            "PickleValueError",
            QStringLiteral("an out-of-band buffer, which torch.load never provides: Python stops here"));
    default:
        return fault("PickleBadOpcode",
                     QStringLiteral("0x%1 is no pickle opcode").arg(code, 2, 16, QLatin1Char('0')));
    }
}

} // namespace ts::pickle
