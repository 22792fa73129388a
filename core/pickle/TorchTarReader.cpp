#include "pickle/TorchTarReader.h"

#include "pickle/PickleStreams.h"
#include "pickle/TarArchive.h"
#include "pickle/TensorNamer.h"
#include "pickle/TensorResolver.h"

#include <charconv>
#include <unordered_map>

namespace ts::pickle {
namespace {

constexpr std::int64_t kMaxEntries = 4 << 20;

// legacy_load's persistent_load: a tuple gives its first item (a module class), anything else
// is the key of a tensor or storage read from 'tensors' and 'storages'.
class TarLoader final : public PersistentLoader {
public:
    ValueId load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit) override
    {
        if (heap.kind(pid) == Kind::Tuple && !heap.items(pid).empty())
            return heap.items(pid).front();
        auto key = keyText(heap, pid);
        if (key && heap.kind(pid) != Kind::Int) {
            // int(saved_id): a string key is parsed as an integer.
            long long v = 0;
            const auto [end, ec] = std::from_chars(key->data(), key->data() + key->size(), v);
            if (ec == std::errc() && end == key->data() + key->size())
                key = std::to_string(v);
            else
                key.reset();
        }
        if (key) {
            if (auto it = objects.find(*key); it != objects.end())
                return it->second;
        }
        audit.add(QStringLiteral("StorageMissing"), Severity::Error,
                  QStringLiteral(
                      "the persistent id at byte %1 names no tensor or storage of the archive: torch.load "
                      "stops here")
                      .arg(offset),
                  offset);
        return kNoValue;
    }

    std::unordered_map<std::string, ValueId> objects;
};

} // namespace

Result<void> TorchTarReader::read()
{
    PickleAudit& audit = m_out.audit;
    m_out.layout = TorchLayout::Tar;
    const QString file = m_source.displayName();
    auto opened = TarArchive::read(m_source, file);
    if (!opened) {
        audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                  opened.error().message + QStringLiteral(": torch.load fails on it too"),
                  opened.error().offset);
        return {};
    }
    const TarArchive& tar = opened.value();
    for (const TarMember& m : tar.members())
        m_out.members << QString::fromStdString(m.name);
    const TarMember* storages = tar.find("storages");
    const TarMember* tensors = tar.find("tensors");
    const TarMember* pickle = tar.find("pickle");
    if (!storages || !tensors || !pickle) {
        audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                  QStringLiteral("the tar archive lacks one of the members storages, tensors and pickle that "
                                 "torch.load reads"));
        return {};
    }
    PickleStreams streams(m_heap, audit, m_limits);
    std::vector<std::string> buffers;
    const auto sourceOf = [&](const TarMember& m, const QString& where) -> std::optional<PickleSource> {
        PickleSource src;
        src.bytes = m_source.view(m.dataOffset, m.size);
        if (src.bytes.empty() && m.size > 0) {
            if (m.size > m_limits.maxPickleBytes)
                return std::nullopt;
            buffers.emplace_back(m.size, '\0');
            if (!m_source.read(m.dataOffset,
                               std::as_writable_bytes(std::span(buffers.back().data(), m.size))))
                return std::nullopt;
            src.bytes = std::as_bytes(std::span(buffers.back().data(), m.size));
        }
        src.base = m.dataOffset;
        src.where = where;
        return src;
    };
    const auto rawInt = [](const PickleSource& s, std::uint64_t pos, int width) {
        std::uint64_t v = 0;
        for (int i = 0; i < width; ++i)
            v |= static_cast<std::uint64_t>(
                     static_cast<std::uint8_t>(s.bytes[pos + static_cast<std::uint64_t>(i)]))
                 << (8 * i);
        return v;
    };
    const auto count = [&](const PickleRun& run, const QString& what) -> std::int64_t {
        if (!run.completed || m_heap.kind(run.result) != Kind::Int || m_heap.at(run.result).number < 0 ||
            m_heap.at(run.result).number > kMaxEntries) {
            if (run.completed)
                audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                          QStringLiteral("%1 does not start with a count").arg(what));
            return -1;
        }
        return m_heap.at(run.result).number;
    };

    TarLoader loader;
    std::unordered_map<std::string, StorageBytes> located;
    std::unordered_map<std::string, ValueId> storageValues;
    if (auto src = sourceOf(*storages, QStringLiteral("the tar member storages"))) {
        PickleRun run = streams.runRead(*src, 0, nullptr);
        std::uint64_t pos = run.end;
        const std::int64_t n = count(run, QStringLiteral("the tar member storages"));
        for (std::int64_t i = 0; i < n; ++i) {
            run = streams.runRead(*src, pos, nullptr);
            if (!run.completed)
                break;
            pos = run.end;
            const ValueId t = run.result;
            if (m_heap.kind(t) != Kind::Tuple || m_heap.items(t).size() != 3) {
                audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                          QStringLiteral("storage %1 of the tar member storages is not (key, location, type)")
                              .arg(i));
                break;
            }
            const std::vector<ValueId> items = m_heap.items(t);
            const auto key = keyText(m_heap, items[0]);
            if (!key || m_heap.kind(items[2]) != Kind::Global ||
                m_heap.globalRef(items[2]).verdict.kind != AllowedKind::StorageType) {
                audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                          QStringLiteral("storage %1 of the tar member storages has no key or storage class")
                              .arg(i));
                break;
            }
            StorageRec s;
            s.key = *key;
            s.dtype = m_heap.globalRef(items[2]).verdict.dtype;
            s.offset = src->base + pos;
            const std::uint64_t elementSize = static_cast<std::uint64_t>(torchElementSize(s.dtype));
            std::uint64_t length = 0;
            if (src->bytes.size() - pos < 8 ||
                __builtin_mul_overflow(rawInt(*src, pos, 8), elementSize, &length) ||
                length > src->bytes.size() - pos - 8) {
                audit.add(
                    QStringLiteral("StorageSizeMismatch"), Severity::Error,
                    QStringLiteral("storage \"%1\" at byte %2 runs past the end of the tar member storages")
                        .arg(QString::fromStdString(s.key))
                        .arg(src->base + pos),
                    src->base + pos);
                break;
            }
            s.numel = rawInt(*src, pos, 8);
            located[s.key] = StorageBytes{true, src->base + pos + 8, length, false, {}};
            m_out.storageBytes += length;
            pos += 8 + length;
            const ValueId id = m_heap.storage(std::move(s));
            if (id == kNoValue)
                break;
            storageValues[m_heap.storageRec(id).key] = id;
            loader.objects[m_heap.storageRec(id).key] = id;
        }
        run = streams.runRead(*src, pos, nullptr); // the storage views
        if (run.completed && m_heap.isSequence(run.result)) {
            for (ValueId v : std::vector<ValueId>(m_heap.items(run.result))) {
                if (!m_heap.isSequence(v) || m_heap.items(v).size() != 4)
                    continue;
                const std::vector<ValueId> f = m_heap.items(v);
                const auto target = keyText(m_heap, f[0]);
                const auto rootKey = keyText(m_heap, f[1]);
                const auto root = rootKey ? storageValues.find(*rootKey) : storageValues.end();
                if (!target || root == storageValues.end() || !m_heap.isInt(f[2]) || !m_heap.isInt(f[3]) ||
                    m_heap.at(f[2]).number < 0 || m_heap.at(f[3]).number < 0)
                    continue;
                StorageRec slice = m_heap.storageRec(root->second);
                slice.key = *target;
                slice.isView = true;
                slice.rootKey = *rootKey;
                slice.viewOffset = static_cast<std::uint64_t>(m_heap.at(f[2]).number);
                slice.numel = static_cast<std::uint64_t>(m_heap.at(f[3]).number);
                const ValueId id = m_heap.storage(std::move(slice));
                if (id != kNoValue)
                    loader.objects[*target] = id;
            }
        }
    }
    if (auto src = sourceOf(*tensors, QStringLiteral("the tar member tensors"))) {
        PickleRun run = streams.runRead(*src, 0, nullptr);
        std::uint64_t pos = run.end;
        const std::int64_t n = count(run, QStringLiteral("the tar member tensors"));
        for (std::int64_t i = 0; i < n; ++i) {
            run = streams.runRead(*src, pos, nullptr);
            if (!run.completed)
                break;
            pos = run.end;
            const ValueId t = run.result;
            const bool shaped = m_heap.kind(t) == Kind::Tuple && m_heap.items(t).size() == 3;
            const auto key = shaped ? keyText(m_heap, m_heap.items(t)[0]) : std::nullopt;
            const auto storageKey = shaped ? keyText(m_heap, m_heap.items(t)[1]) : std::nullopt;
            const auto storage = storageKey ? loader.objects.find(*storageKey) : loader.objects.end();
            if (!key || storage == loader.objects.end() || m_heap.kind(storage->second) != Kind::Storage) {
                audit.add(
                    QStringLiteral("TarMalformed"), Severity::Error,
                    QStringLiteral("tensor %1 of the tar member tensors names no storage of the archive")
                        .arg(i));
                break;
            }
            const std::uint64_t left = src->bytes.size() - pos;
            const std::uint64_t rank = left >= 8 ? rawInt(*src, pos, 4) : ~0ull;
            if (rank > m_limits.maxRank || left < 8 + 16 * rank + 8) {
                audit.add(
                    QStringLiteral("TarMalformed"), Severity::Error,
                    QStringLiteral("tensor \"%1\" of the tar member tensors has no valid shape at byte %2")
                        .arg(QString::fromStdString(*key))
                        .arg(src->base + pos),
                    src->base + pos);
                break;
            }
            TensorRec rec;
            rec.storage = storage->second;
            rec.dtype = m_heap.storageRec(storage->second).dtype;
            rec.offset = src->base + pos;
            bool negative = false;
            for (std::uint64_t d = 0; d < rank; ++d) {
                rec.shape.push_back(rawInt(*src, pos + 8 + 8 * d, 8));
                rec.stride.push_back(rawInt(*src, pos + 8 + 8 * rank + 8 * d, 8));
                negative = negative || (rec.shape.back() >> 63) || (rec.stride.back() >> 63);
            }
            rec.storageOffset = rawInt(*src, pos + 8 + 16 * rank, 8);
            negative = negative || (rec.storageOffset >> 63);
            pos += 8 + 16 * rank + 8;
            if (negative) {
                audit.add(QStringLiteral("TarMalformed"), Severity::Error,
                          QStringLiteral(
                              "tensor \"%1\" of the tar member tensors has a negative size, stride or offset")
                              .arg(QString::fromStdString(*key)),
                          rec.offset);
                continue;
            }
            const ValueId id = m_heap.tensor(std::move(rec));
            if (id == kNoValue)
                break;
            loader.objects[*key] = id;
        }
    }
    TensorNamer namer(m_heap, m_limits, audit);
    if (auto src = sourceOf(*pickle, QStringLiteral("the tar member pickle"))) {
        m_out.pickles.insert(m_out.pickles.begin(),
                             PickleStream{src->where, src->base, src->bytes.size(), {}});
        m_out.pickleBytes += src->bytes.size();
        PickleRun run = streams.runRead(*src, 0, &loader);
        if (run.completed) {
            streams.trailing(*src, run.end, QStringLiteral("the pickle member's STOP"));
            namer.name(run.result, {});
        } else {
            for (ValueId v : run.salvage)
                namer.name(v, {});
        }
    }
    const StorageLookup lookup = [&](const StorageRec& s) {
        const std::string& rootKey = s.isView ? s.rootKey : s.key;
        const auto it = located.find(rootKey);
        if (it == located.end()) {
            StorageBytes b;
            b.problem =
                QStringLiteral("storage \"%1\" is not in the archive").arg(QString::fromStdString(rootKey));
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
    return {};
}

} // namespace ts::pickle
