#include "pickle/PickleDisassembly.h"

#include "pickle/PickleOpcodes.h"

#include <QStringBuilder>

#include <algorithm>

namespace ts::pickle {

QByteArray disassemble(std::span<const std::byte> pickle, std::uint64_t base, std::uint64_t maxBytes)
{
    QByteArray out;
    int depth = 0;
    std::uint64_t pos = 0;
    const auto uint = [&](std::uint64_t at, int width) {
        std::uint64_t v = 0;
        for (int i = 0; i < width; ++i)
            v |= static_cast<std::uint64_t>(
                     static_cast<std::uint8_t>(pickle[at + static_cast<std::uint64_t>(i)]))
                 << (8 * i);
        return v;
    };
    const auto quoted = [](const char* data, std::uint64_t length) {
        QByteArray s = QByteArray(data, static_cast<qsizetype>(std::min<std::uint64_t>(length, 200)));
        QByteArray shown;
        for (char c : s)
            if (c >= 0x20 && c < 0x7f && c != '\'')
                shown += c;
            else
                shown += QByteArray("\\x") +
                         QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
        if (length > 200)
            shown += "... (" + QByteArray::number(static_cast<qulonglong>(length)) + " bytes)";
        return QByteArray("'" + shown + "'");
    };
    while (pos < pickle.size() && static_cast<std::uint64_t>(out.size()) < maxBytes) {
        const std::uint8_t code = static_cast<std::uint8_t>(pickle[pos]);
        const OpcodeInfo& info = opcodeInfo(code);
        if (code == op::TUPLE || code == op::LIST || code == op::DICT || code == op::APPENDS ||
            code == op::SETITEMS || code == op::ADDITEMS || code == op::FROZENSET || code == op::POP_MARK ||
            code == op::OBJ || code == op::INST)
            depth = std::max(0, depth - 1);
        QByteArray line =
            QByteArray::number(static_cast<qulonglong>(base + pos)).rightJustified(10, ' ') + ": ";
        line += QByteArray(std::min(depth, 32) * 4, ' ');
        if (!info.name) {
            out += line + "?? byte 0x" + QByteArray::number(code, 16) + " is no opcode\n";
            break;
        }
        line += info.name;
        std::uint64_t next = pos + 1;
        const std::uint64_t left = pickle.size() - next;
        switch (info.arg) {
        case ArgKind::None:
            break;
        case ArgKind::U1:
        case ArgKind::U2:
        case ArgKind::I4:
        case ArgKind::U4:
        case ArgKind::U8: {
            const int w = info.arg == ArgKind::U1   ? 1
                          : info.arg == ArgKind::U2 ? 2
                          : info.arg == ArgKind::U8 ? 8
                                                    : 4;
            if (left < static_cast<std::uint64_t>(w))
                return QByteArray(out + line + " (cut short)\n");
            std::uint64_t v = uint(next, w);
            line += ' ' + (info.arg == ArgKind::I4 ? QByteArray::number(static_cast<std::int32_t>(v))
                                                   : QByteArray::number(static_cast<qulonglong>(v)));
            next += static_cast<std::uint64_t>(w);
            break;
        }
        case ArgKind::F8:
            if (left < 8)
                return QByteArray(out + line + " (cut short)\n");
            next += 8;
            break;
        case ArgKind::Line:
        case ArgKind::TwoLines: {
            for (int k = 0; k < (info.arg == ArgKind::TwoLines ? 2 : 1); ++k) {
                std::uint64_t e = next;
                while (e < pickle.size() && pickle[e] != std::byte{'\n'})
                    ++e;
                if (e >= pickle.size())
                    return QByteArray(out + line + " (no end of line)\n");
                line += ' ' + quoted(reinterpret_cast<const char*>(pickle.data()) + next, e - next);
                next = e + 1;
            }
            break;
        }
        case ArgKind::Bytes1:
        case ArgKind::Bytes4:
        case ArgKind::Bytes4Signed:
        case ArgKind::Bytes8: {
            const int w = info.arg == ArgKind::Bytes1 ? 1 : info.arg == ArgKind::Bytes8 ? 8 : 4;
            if (left < static_cast<std::uint64_t>(w))
                return QByteArray(out + line + " (cut short)\n");
            const std::uint64_t length = uint(next, w);
            next += static_cast<std::uint64_t>(w);
            if (length > pickle.size() - next)
                return QByteArray(out + line + " of " + QByteArray::number(static_cast<qulonglong>(length)) +
                                  " bytes, past the end\n");
            line += ' ' + quoted(reinterpret_cast<const char*>(pickle.data()) + next, length);
            next += length;
            break;
        }
        }
        out += line + '\n';
        if (code == op::MARK)
            ++depth;
        pos = next;
        if (code == op::STOP)
            break;
    }
    if (static_cast<std::uint64_t>(out.size()) >= maxBytes)
        out += "... (the disassembly stops here)\n";
    return out;
}

} // namespace ts::pickle
