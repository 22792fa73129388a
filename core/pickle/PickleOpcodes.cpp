#include "pickle/PickleOpcodes.h"

#include <array>

namespace ts::pickle {
namespace {

std::array<OpcodeInfo, 256> buildTable()
{
    std::array<OpcodeInfo, 256> t{};
    for (OpcodeInfo& i : t)
        i = OpcodeInfo{nullptr, ArgKind::None, 0};
    auto set = [&t](std::uint8_t code, const char* name, ArgKind arg, int protocol) {
        t[code] = OpcodeInfo{name, arg, protocol};
    };
    using A = ArgKind;
    set(op::MARK, "MARK", A::None, 0);
    set(op::STOP, "STOP", A::None, 0);
    set(op::POP, "POP", A::None, 0);
    set(op::POP_MARK, "POP_MARK", A::None, 1);
    set(op::DUP, "DUP", A::None, 0);
    set(op::FLOAT, "FLOAT", A::Line, 0);
    set(op::INT, "INT", A::Line, 0);
    set(op::BININT, "BININT", A::I4, 1);
    set(op::BININT1, "BININT1", A::U1, 1);
    set(op::LONG, "LONG", A::Line, 0);
    set(op::BININT2, "BININT2", A::U2, 1);
    set(op::NONE, "NONE", A::None, 0);
    set(op::PERSID, "PERSID", A::Line, 0);
    set(op::BINPERSID, "BINPERSID", A::None, 1);
    set(op::REDUCE, "REDUCE", A::None, 0);
    set(op::STRING, "STRING", A::Line, 0);
    set(op::BINSTRING, "BINSTRING", A::Bytes4Signed, 1);
    set(op::SHORT_BINSTRING, "SHORT_BINSTRING", A::Bytes1, 1);
    set(op::UNICODE, "UNICODE", A::Line, 0);
    set(op::BINUNICODE, "BINUNICODE", A::Bytes4, 1);
    set(op::APPEND, "APPEND", A::None, 0);
    set(op::BUILD, "BUILD", A::None, 0);
    set(op::GLOBAL, "GLOBAL", A::TwoLines, 0);
    set(op::DICT, "DICT", A::None, 0);
    set(op::EMPTY_DICT, "EMPTY_DICT", A::None, 1);
    set(op::APPENDS, "APPENDS", A::None, 1);
    set(op::GET, "GET", A::Line, 0);
    set(op::BINGET, "BINGET", A::U1, 1);
    set(op::INST, "INST", A::TwoLines, 0);
    set(op::LONG_BINGET, "LONG_BINGET", A::U4, 1);
    set(op::LIST, "LIST", A::None, 0);
    set(op::EMPTY_LIST, "EMPTY_LIST", A::None, 1);
    set(op::OBJ, "OBJ", A::None, 1);
    set(op::PUT, "PUT", A::Line, 0);
    set(op::BINPUT, "BINPUT", A::U1, 1);
    set(op::LONG_BINPUT, "LONG_BINPUT", A::U4, 1);
    set(op::SETITEM, "SETITEM", A::None, 0);
    set(op::TUPLE, "TUPLE", A::None, 0);
    set(op::EMPTY_TUPLE, "EMPTY_TUPLE", A::None, 1);
    set(op::SETITEMS, "SETITEMS", A::None, 1);
    set(op::BINFLOAT, "BINFLOAT", A::F8, 1);
    set(op::PROTO, "PROTO", A::U1, 2);
    set(op::NEWOBJ, "NEWOBJ", A::None, 2);
    set(op::EXT1, "EXT1", A::U1, 2);
    set(op::EXT2, "EXT2", A::U2, 2);
    set(op::EXT4, "EXT4", A::I4, 2);
    set(op::TUPLE1, "TUPLE1", A::None, 2);
    set(op::TUPLE2, "TUPLE2", A::None, 2);
    set(op::TUPLE3, "TUPLE3", A::None, 2);
    set(op::NEWTRUE, "NEWTRUE", A::None, 2);
    set(op::NEWFALSE, "NEWFALSE", A::None, 2);
    set(op::LONG1, "LONG1", A::Bytes1, 2);
    set(op::LONG4, "LONG4", A::Bytes4Signed, 2);
    set(op::BINBYTES, "BINBYTES", A::Bytes4, 3);
    set(op::SHORT_BINBYTES, "SHORT_BINBYTES", A::Bytes1, 3);
    set(op::SHORT_BINUNICODE, "SHORT_BINUNICODE", A::Bytes1, 4);
    set(op::BINUNICODE8, "BINUNICODE8", A::Bytes8, 4);
    set(op::BINBYTES8, "BINBYTES8", A::Bytes8, 4);
    set(op::EMPTY_SET, "EMPTY_SET", A::None, 4);
    set(op::ADDITEMS, "ADDITEMS", A::None, 4);
    set(op::FROZENSET, "FROZENSET", A::None, 4);
    set(op::NEWOBJ_EX, "NEWOBJ_EX", A::None, 4);
    set(op::STACK_GLOBAL, "STACK_GLOBAL", A::None, 4);
    set(op::MEMOIZE, "MEMOIZE", A::None, 4);
    set(op::FRAME, "FRAME", A::U8, 4);
    set(op::BYTEARRAY8, "BYTEARRAY8", A::Bytes8, 5);
    set(op::NEXT_BUFFER, "NEXT_BUFFER", A::None, 5);
    set(op::READONLY_BUFFER, "READONLY_BUFFER", A::None, 5);
    return t;
}

} // namespace

const OpcodeInfo& opcodeInfo(std::uint8_t code)
{
    static const std::array<OpcodeInfo, 256> table = buildTable();
    return table[code];
}

} // namespace ts::pickle
