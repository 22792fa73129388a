#include "pickle/TorchLegacyReader.h"

#include "pickle/PickleStreams.h"
#include "pickle/TensorNamer.h"
#include "pickle/TensorResolver.h"

#include <QHash>

#include <unordered_map>

namespace ts::pickle {
namespace {

// torch/serialization.py MAGIC_NUMBER 0x1950a86a20f9469cfc6c, little-endian.
const std::string kMagic("\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 10);
constexpr std::int64_t kProtocolVersion = 1001;

std::string trimmed(std::string le)
{
    while (le.size() > 1 && le.back() == '\0' && !(static_cast<unsigned char>(le[le.size() - 2]) & 0x80))
        le.pop_back();
    return le;
}

// _legacy_load's persistent_load: ('module', class, source_file, source) gives the class;
// ('storage', type, root_key, location, numel, view_metadata) the storage, the first id of a
// root key deciding its size, a view (view_key, offset, size) a slice of it.
class LegacyStorageLoader final : public PersistentLoader {
public:
    ValueId load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit) override
    {
        const auto bad = [&](const QString& why) {
            audit.add(
                QStringLiteral("PickleValueError"), Severity::Error,
                QStringLiteral("the persistent id at byte %1 %2: torch.load stops here").arg(offset).arg(why),
                offset);
            return kNoValue;
        };
        if (heap.kind(pid) != Kind::Tuple || heap.items(pid).empty())
            return bad(QStringLiteral("is not a tuple"));
        const std::vector<ValueId> items = heap.items(pid);
        const auto type = keyText(heap, items[0]);
        if (type && *type == "module")
            return items.size() > 1 ? items[1] : bad(QStringLiteral("names no module class"));
        if (!type || *type != "storage")
            return bad(QStringLiteral("is neither a storage nor a module"));
        if (items.size() != 6)
            return bad(QStringLiteral("has %1 fields, not 6").arg(items.size()));
        if (heap.kind(items[1]) != Kind::Global ||
            heap.globalRef(items[1]).verdict.kind != AllowedKind::StorageType)
            return bad(QStringLiteral("has no storage class"));
        const auto root = keyText(heap, items[2]);
        if (!root || heap.kind(items[4]) != Kind::Int || heap.at(items[4]).number < 0)
            return bad(QStringLiteral("has no key or element count"));
        StorageRec s;
        s.key = *root;
        s.dtype = heap.globalRef(items[1]).verdict.dtype;
        s.numel = static_cast<std::uint64_t>(heap.at(items[4]).number);
        s.offset = offset;
        if (auto loc = keyText(heap, items[3]))
            s.location = *loc;
        auto rootIt = roots.find(*root);
        if (rootIt == roots.end())
            rootIt = roots.emplace(*root, s).first;
        const ValueId view = items[5];
        if (heap.kind(view) == Kind::None) {
            if (auto it = values.find(*root); it != values.end())
                return it->second;
            StorageRec r = rootIt->second;
            const ValueId id = heap.storage(std::move(r));
            if (id != kNoValue)
                values.emplace(*root, id);
            return id;
        }
        if (heap.kind(view) != Kind::Tuple || heap.items(view).size() != 3)
            return bad(QStringLiteral("has a view that is not (key, offset, size)"));
        const std::vector<ValueId> v = heap.items(view);
        const auto viewKey = keyText(heap, v[0]);
        if (!viewKey || heap.kind(v[1]) != Kind::Int || heap.kind(v[2]) != Kind::Int ||
            heap.at(v[1]).number < 0 || heap.at(v[2]).number < 0)
            return bad(QStringLiteral("has a view that is not (key, offset, size)"));
        if (auto it = values.find(*viewKey); it != values.end())
            return it->second;
        StorageRec slice = rootIt->second;
        slice.key = *viewKey;
        slice.isView = true;
        slice.rootKey = *root;
        slice.viewOffset = static_cast<std::uint64_t>(heap.at(v[1]).number);
        slice.numel = static_cast<std::uint64_t>(heap.at(v[2]).number);
        const ValueId id = heap.storage(std::move(slice));
        if (id != kNoValue)
            values.emplace(*viewKey, id);
        return id;
    }

    std::unordered_map<std::string, StorageRec> roots; // by root key: the storage torch allocates
    std::unordered_map<std::string, ValueId> values;   // by key, views included
};

} // namespace

Result<void> TorchLegacyReader::read()
{
    PickleAudit& audit = m_out.audit;
    m_out.layout = TorchLayout::Legacy;
    const std::uint64_t size = m_source.size();
    std::string buffer;
    std::span<const std::byte> bytes = m_source.view(0, size);
    if (bytes.empty() && size > 0) {
        buffer.resize(std::min(size, m_limits.maxPickleBytes));
        if (auto r = m_source.read(0, std::as_writable_bytes(std::span(buffer.data(), buffer.size()))); !r)
            return r.error();
        bytes = std::as_bytes(std::span(buffer.data(), buffer.size()));
    }
    PickleStreams streams(m_heap, audit, m_limits);
    PickleSource src;
    src.bytes = bytes;
    src.base = 0;

    static const char* const kNames[] = {"the magic number pickle", "the protocol version pickle",
                                         "the sys_info pickle", "the main pickle", "the storage keys pickle"};
    LegacyStorageLoader loader;
    std::uint64_t pos = 0;
    PickleRun runs[5];
    int done = 0;
    for (; done < 5; ++done) {
        src.where = QLatin1String(kNames[done]);
        const std::uint64_t start = pos;
        runs[done] = streams.runRead(src, pos, done == 3 ? &loader : nullptr);
        m_out.pickles.push_back(PickleStream{src.where, start, runs[done].end - start, {}});
        m_out.pickleBytes += runs[done].end - start;
        pos = runs[done].end;
        if (!runs[done].completed)
            break;
        if (done == 0) {
            const ValueId magic = runs[0].result;
            const Kind k = m_heap.kind(magic);
            if (k == Kind::BigInt && trimmed(m_heap.text(magic)) == kMagic)
                continue;
            if (k == Kind::Object) {
                audit.add(QStringLiteral("LegacyMagicComputed"), Severity::Warning,
                          QStringLiteral(
                              "the magic number is not written out but computed by a call: torch.load runs "
                              "that call to find out whether this is a checkpoint (a scanner that looks "
                              "for the literal number gives up here)"),
                          std::uint64_t{0});
                continue;
            }
            // Not a torch checkpoint: a pickle of something else, shown as it is.
            m_out.layout = TorchLayout::Pickle;
            m_out.pickles.front().label = QStringLiteral("the pickle");
            TensorNamer namer(m_heap, m_limits, audit);
            namer.name(magic, {});
            streams.trailing(src, pos, QStringLiteral("the pickle's STOP"));
            if (!namer.tensors().empty()) {
                audit.add(
                    QStringLiteral("StorageMissing"), Severity::Warning,
                    QStringLiteral("the pickle holds %1 tensors but is no torch checkpoint: their bytes are "
                                   "not in it")
                        .arg(namer.tensors().size()));
            }
            return {};
        }
        if (done == 1 && (m_heap.kind(runs[1].result) != Kind::Int ||
                          m_heap.at(runs[1].result).number != kProtocolVersion)) {
            audit.add(
                QStringLiteral("LegacyMalformed"), Severity::Error,
                QStringLiteral("the protocol version pickle does not hold 1001: torch.load refuses the file"),
                m_out.pickles.back().offset);
        }
    }
    if (m_out.pickles.size() > 3)
        std::rotate(m_out.pickles.begin(), m_out.pickles.begin() + 3,
                    m_out.pickles.begin() + 4); // main first

    // The object, even when a later pickle broke.
    TensorNamer namer(m_heap, m_limits, audit);
    if (done >= 3) {
        const PickleRun& main = runs[3];
        if (main.completed) {
            namer.name(main.result, {});
        } else {
            for (ValueId v : main.salvage)
                namer.name(v, {});
        }
    }

    // The storages follow the keys pickle: an 8-byte element count, then the bytes, per key.
    std::unordered_map<std::string, StorageBytes> located;
    if (done == 5) {
        const ValueId keys = runs[4].result;
        if (!m_heap.isSequence(keys)) {
            audit.add(
                QStringLiteral("LegacyMalformed"), Severity::Error,
                QStringLiteral("the storage keys pickle holds no list: torch.load cannot find the storages"),
                m_out.pickles.back().offset);
        } else {
            const std::vector<ValueId> list = m_heap.items(keys);
            for (ValueId kv : list) {
                const auto key = keyText(m_heap, kv);
                const auto root = key ? loader.roots.find(*key) : loader.roots.end();
                if (root == loader.roots.end()) {
                    audit.add(
                        QStringLiteral("LegacyMalformed"), Severity::Error,
                        QStringLiteral("the storage keys name \"%1\", which no tensor uses: torch.load stops "
                                       "there")
                            .arg(key ? QString::fromStdString(*key) : QStringLiteral("?")),
                        pos);
                    break;
                }
                const StorageRec& s = root->second;
                const std::uint64_t elementSize = static_cast<std::uint64_t>(torchElementSize(s.dtype));
                std::byte countBytes[8];
                if (size - pos < 8 || !m_source.read(pos, countBytes)) {
                    audit.add(QStringLiteral("StorageSizeMismatch"), Severity::Error,
                              QStringLiteral(
                                  "the file ends at byte %1, before storage \"%2\" and the ones after it")
                                  .arg(size)
                                  .arg(QString::fromStdString(s.key)),
                              pos);
                    break;
                }
                std::uint64_t count = 0;
                for (int i = 0; i < 8; ++i)
                    count |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(countBytes[i])) << (8 * i);
                const std::uint64_t begin = pos + 8;
                const std::uint64_t left = size - begin;
                // The pickle's element count lays the file out: a count torch would refuse is
                // reported, and the next storage is looked for where the declared one ends.
                std::uint64_t length = 0;
                const bool overflow = __builtin_mul_overflow(s.numel, elementSize, &length);
                if (count != s.numel) {
                    audit.add(QStringLiteral("StorageSizeMismatch"), Severity::Error,
                              QStringLiteral(
                                  "storage \"%1\" at byte %2 holds %3 elements but its persistent id "
                                  "declares %4: torch.load refuses the file (storage has wrong byte size)")
                                  .arg(QString::fromStdString(s.key))
                                  .arg(pos)
                                  .arg(count)
                                  .arg(s.numel),
                              pos);
                }
                if (overflow || length > left) {
                    audit.add(
                        QStringLiteral("StorageSizeMismatch"), Severity::Error,
                        QStringLiteral("storage \"%1\" declares %2 elements at byte %3, past the end of the "
                                       "file (%4 bytes left)")
                            .arg(QString::fromStdString(s.key))
                            .arg(s.numel)
                            .arg(begin)
                            .arg(left),
                        begin);
                    located[s.key] =
                        StorageBytes{true, begin, std::min(left, s.numel * elementSize), false, {}};
                    pos = size;
                    break;
                }
                located[s.key] =
                    StorageBytes{true, begin, std::min(length, s.numel * elementSize), false, {}};
                m_out.storageBytes += length;
                pos = begin + length;
            }
            if (pos < size) {
                PickleSource rest = src;
                rest.where = QStringLiteral("the end of the file");
                if (bytes.size() >= size) {
                    streams.trailing(rest, pos, QStringLiteral("the last storage"));
                } else {
                    audit.add(QStringLiteral("PickleTrailingBytes"), Severity::Warning,
                              QStringLiteral(
                                  "%1 bytes follow the last storage at byte %2: torch.load never reads them")
                                  .arg(size - pos)
                                  .arg(pos),
                              pos);
                }
            }
        }
    }
    const StorageLookup lookup = [&](const StorageRec& s) {
        const std::string& rootKey = s.isView ? s.rootKey : s.key;
        const auto it = located.find(rootKey);
        if (it == located.end()) {
            StorageBytes b;
            b.problem = QStringLiteral("the bytes of its storage \"%1\" are not in the file")
                            .arg(QString::fromStdString(rootKey));
            return b;
        }
        StorageBytes b = it->second;
        if (s.isView) {
            const std::uint64_t skip = s.viewOffset * static_cast<std::uint64_t>(torchElementSize(s.dtype));
            b.begin += std::min(skip, b.bytes);
            b.bytes -= std::min(skip, b.bytes);
        }
        return b;
    };
    resolveTensors(m_heap, namer.tensors(), lookup, audit, m_out.tensors);
    if (!m_source.checkView(0, size))
        return makeError(ErrorCode::FileChanged, m_source.displayName(),
                         QStringLiteral("the file changed while it was read"));
    return {};
}

} // namespace ts::pickle
