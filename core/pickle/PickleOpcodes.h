#pragma once

#include <cstdint>

namespace ts::pickle {

// The opcodes of pickle protocols 0 to 5 (Lib/pickle.py, Lib/pickletools.py).
namespace op {
inline constexpr std::uint8_t MARK = '(';
inline constexpr std::uint8_t STOP = '.';
inline constexpr std::uint8_t POP = '0';
inline constexpr std::uint8_t POP_MARK = '1';
inline constexpr std::uint8_t DUP = '2';
inline constexpr std::uint8_t FLOAT = 'F';
inline constexpr std::uint8_t INT = 'I';
inline constexpr std::uint8_t BININT = 'J';
inline constexpr std::uint8_t BININT1 = 'K';
inline constexpr std::uint8_t LONG = 'L';
inline constexpr std::uint8_t BININT2 = 'M';
inline constexpr std::uint8_t NONE = 'N';
inline constexpr std::uint8_t PERSID = 'P';
inline constexpr std::uint8_t BINPERSID = 'Q';
inline constexpr std::uint8_t REDUCE = 'R';
inline constexpr std::uint8_t STRING = 'S';
inline constexpr std::uint8_t BINSTRING = 'T';
inline constexpr std::uint8_t SHORT_BINSTRING = 'U';
inline constexpr std::uint8_t UNICODE = 'V';
inline constexpr std::uint8_t BINUNICODE = 'X';
inline constexpr std::uint8_t APPEND = 'a';
inline constexpr std::uint8_t BUILD = 'b';
inline constexpr std::uint8_t GLOBAL = 'c';
inline constexpr std::uint8_t DICT = 'd';
inline constexpr std::uint8_t EMPTY_DICT = '}';
inline constexpr std::uint8_t APPENDS = 'e';
inline constexpr std::uint8_t GET = 'g';
inline constexpr std::uint8_t BINGET = 'h';
inline constexpr std::uint8_t INST = 'i';
inline constexpr std::uint8_t LONG_BINGET = 'j';
inline constexpr std::uint8_t LIST = 'l';
inline constexpr std::uint8_t EMPTY_LIST = ']';
inline constexpr std::uint8_t OBJ = 'o';
inline constexpr std::uint8_t PUT = 'p';
inline constexpr std::uint8_t BINPUT = 'q';
inline constexpr std::uint8_t LONG_BINPUT = 'r';
inline constexpr std::uint8_t SETITEM = 's';
inline constexpr std::uint8_t TUPLE = 't';
inline constexpr std::uint8_t EMPTY_TUPLE = ')';
inline constexpr std::uint8_t SETITEMS = 'u';
inline constexpr std::uint8_t BINFLOAT = 'G';
inline constexpr std::uint8_t PROTO = 0x80;
inline constexpr std::uint8_t NEWOBJ = 0x81;
inline constexpr std::uint8_t EXT1 = 0x82;
inline constexpr std::uint8_t EXT2 = 0x83;
inline constexpr std::uint8_t EXT4 = 0x84;
inline constexpr std::uint8_t TUPLE1 = 0x85;
inline constexpr std::uint8_t TUPLE2 = 0x86;
inline constexpr std::uint8_t TUPLE3 = 0x87;
inline constexpr std::uint8_t NEWTRUE = 0x88;
inline constexpr std::uint8_t NEWFALSE = 0x89;
inline constexpr std::uint8_t LONG1 = 0x8a;
inline constexpr std::uint8_t LONG4 = 0x8b;
inline constexpr std::uint8_t BINBYTES = 'B';
inline constexpr std::uint8_t SHORT_BINBYTES = 'C';
inline constexpr std::uint8_t SHORT_BINUNICODE = 0x8c;
inline constexpr std::uint8_t BINUNICODE8 = 0x8d;
inline constexpr std::uint8_t BINBYTES8 = 0x8e;
inline constexpr std::uint8_t EMPTY_SET = 0x8f;
inline constexpr std::uint8_t ADDITEMS = 0x90;
inline constexpr std::uint8_t FROZENSET = 0x91;
inline constexpr std::uint8_t NEWOBJ_EX = 0x92;
inline constexpr std::uint8_t STACK_GLOBAL = 0x93;
inline constexpr std::uint8_t MEMOIZE = 0x94;
inline constexpr std::uint8_t FRAME = 0x95;
inline constexpr std::uint8_t BYTEARRAY8 = 0x96;
inline constexpr std::uint8_t NEXT_BUFFER = 0x97;
inline constexpr std::uint8_t READONLY_BUFFER = 0x98;
} // namespace op

// How an opcode's argument is encoded in the stream.
enum class ArgKind : std::uint8_t {
    None,
    U1,           // 1 byte
    U2,           // 2 bytes little-endian
    I4,           // 4 bytes little-endian signed
    U4,           // 4 bytes little-endian unsigned
    U8,           // 8 bytes little-endian
    F8,           // 8 bytes big-endian double
    Line,         // text up to '\n'
    TwoLines,     // module '\n' name '\n'
    Bytes1,       // 1-byte length, then the bytes
    Bytes4,       // 4-byte unsigned length, then the bytes
    Bytes4Signed, // 4-byte signed length (BINSTRING, LONG4), then the bytes
    Bytes8,       // 8-byte length, then the bytes
};

struct OpcodeInfo {
    const char* name; // nullptr for a byte that is no opcode
    ArgKind arg;
    int protocol; // the protocol that introduced it
};

const OpcodeInfo& opcodeInfo(std::uint8_t code);

} // namespace ts::pickle
