#include "pickle/TorchZipReader.h"

#include "io/MemorySource.h"
#include "pickle/PickleStreams.h"
#include "pickle/TensorNamer.h"
#include "pickle/TensorResolver.h"
#include "pickle/ZipArchive.h"

#include <QHash>
#include <QSet>

namespace ts::pickle {
namespace {

// Storages up to this many bytes in all get their CRC-32 checked when the file opens; beyond, only
// the pickles are (a 10 GB checkpoint should not be read whole to open it).
constexpr std::uint64_t kStorageCrcBudget = 32u << 20;
constexpr std::uint64_t kMaxNestedArchive = 256u << 20;

// torch/serialization.py _load's persistent_load: ('storage', storage_type, key, location, numel),
// the first storage of a key decides (a later id with the same key gets the same storage).
class ZipStorageLoader final : public PersistentLoader {
public:
    ValueId load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit) override
    {
        const auto bad = [&](const QString& why) {
            audit.add(QStringLiteral("PickleValueError"), Severity::Error,
                      QStringLiteral("the persistent id at byte %1 %2: torch.load stops here (it takes only "
                                     "('storage', type, key, location, numel))")
                          .arg(offset)
                          .arg(why),
                      offset);
            return kNoValue;
        };
        if (heap.kind(pid) != Kind::Tuple)
            return bad(QStringLiteral("is not a tuple"));
        const std::vector<ValueId> items = heap.items(pid);
        if (items.empty() || (heap.kind(items[0]) != Kind::Str && heap.kind(items[0]) != Kind::Bytes) ||
            heap.text(items[0]) != "storage")
            return bad(QStringLiteral("is not a storage"));
        if (items.size() != 5)
            return bad(QStringLiteral("has %1 fields").arg(items.size()));
        const auto key = keyText(heap, items[2]);
        if (!key)
            return bad(QStringLiteral("has a key that is no string"));
        if (auto it = m_byKey.find(*key); it != m_byKey.end())
            return it->second;
        StorageRec s;
        s.key = *key;
        s.offset = offset;
        const ValueId type = items[1];
        if (heap.kind(type) != Kind::Global)
            return bad(QStringLiteral("has a storage type that is no class"));
        const GlobalVerdict& v = heap.globalRef(type).verdict;
        if (v.kind == AllowedKind::StorageType)
            s.dtype = v.dtype;
        else if (v.kind == AllowedKind::UntypedStorage)
            s.dtype = TorchDtype::UInt8;
        else
            return bad(
                QStringLiteral("names %1 as its storage type").arg(QString::fromStdString(v.resolved)));
        if (heap.kind(items[4]) != Kind::Int || heap.at(items[4]).number < 0)
            return bad(QStringLiteral("has an element count that is no count"));
        s.numel = static_cast<std::uint64_t>(heap.at(items[4]).number);
        if (auto loc = keyText(heap, items[3]))
            s.location = *loc;
        const ValueId id = heap.storage(std::move(s));
        if (id != kNoValue)
            m_byKey.emplace(*key, id);
        return id;
    }

private:
    std::unordered_map<std::string, ValueId> m_byKey;
};

bool isStructuralRecord(const std::string& rel)
{
    static const char* const known[] = {"data.pkl",
                                        "version",
                                        ".data/version",
                                        "byteorder",
                                        ".data/serialization_id",
                                        ".format_version",
                                        ".storage_alignment",
                                        "constants.pkl"};
    for (const char* k : known) {
        if (rel == k)
            return true;
    }
    return rel.starts_with("code/") || rel.starts_with(".data/") || rel.starts_with("extra/") ||
           rel.starts_with("constants/");
}

} // namespace

Result<void> TorchZipReader::read()
{
    PickleAudit& audit = m_out.audit;
    const QString file = m_source.displayName();
    auto opened = ZipArchive::read(m_source, audit, file);
    if (!opened)
        return opened.error();
    const ZipArchive& zip = opened.value();
    for (const ZipMember& m : zip.members())
        m_out.members << QString::fromStdString(m.name);
    const std::string& root = zip.root();
    const QString rootName = QString::fromStdString(root);
    PickleStreams streams(m_heap, audit, m_limits);

    // The pickle members' CRCs are always checked: a wrong one is what makes Python's zipfile,
    // and the scanners built on it, refuse a member torch reads without a second look.
    std::uint64_t crcBudget = kStorageCrcBudget;
    auto checkCrc = [&](const ZipMember& m, const std::string* contents) {
        bool ok = true;
        std::uint32_t crc = 0;
        if (contents) {
            crc = crc32Of(MemorySource(QByteArray::fromRawData(contents->data(),
                                                               static_cast<qsizetype>(contents->size()))),
                          0, contents->size(), &ok);
        } else {
            if (m.compressedSize > crcBudget || m.method != 0)
                return;
            crcBudget -= m.compressedSize;
            crc = crc32Of(m_source, m.dataOffset, m.compressedSize, &ok);
        }
        if (ok && crc != m.crc) {
            audit.add(QStringLiteral("ZipCrcMismatch"), Severity::Warning,
                      QStringLiteral(
                          "member \"%1\" has CRC-32 %2 but declares %3: torch does not check it, Python's "
                          "zipfile (what scanners read with) refuses the member")
                          .arg(QString::fromStdString(m.name))
                          .arg(crc, 8, 16, QLatin1Char('0'))
                          .arg(m.crc, 8, 16, QLatin1Char('0')),
                      m.dataOffset);
        }
    };

    const bool torchScript = zip.find("constants.pkl") >= 0;
    if (torchScript) {
        m_out.layout = TorchLayout::TorchScript;
        QStringList code;
        for (const ZipMember& m : zip.members()) {
            if (m.name.starts_with(root + "/code/") && !m.name.ends_with(".debug_pkl"))
                code << QString::fromStdString(m.name.substr(root.size() + 1));
        }
        audit.add(QStringLiteral("TorchScriptArchive"), Severity::Error,
                  QStringLiteral(
                      "%1/constants.pkl makes this a TorchScript archive: torch.load hands it to "
                      "torch.jit.load, which runs the TorchScript code it carries (%2). Tensorscope lists "
                      "its tensors and runs nothing.")
                      .arg(rootName, code.isEmpty() ? QStringLiteral("no code/ member")
                                                    : code.join(QStringLiteral(", "))),
                  zip.members()[static_cast<std::size_t>(zip.find("constants.pkl"))].headerOffset, {},
                  FindingKind::Code);
    }
    if (zip.find("version") < 0 && zip.find(".data/version") < 0) {
        audit.add(
            QStringLiteral("ZipMalformed"), Severity::Error,
            QStringLiteral("the archive has no %1/version record: torch.load refuses it").arg(rootName));
    }
    bool bigEndian = false;
    if (const int b = zip.find("byteorder"); b >= 0) {
        auto order = zip.contents(m_source, zip.members()[static_cast<std::size_t>(b)], 64);
        if (order && *order == "big") {
            bigEndian = true;
        } else if (!order || *order != "little") {
            audit.add(QStringLiteral("ZipMalformed"), Severity::Warning,
                      QStringLiteral("the byteorder record says neither \"little\" nor \"big\""),
                      zip.members()[static_cast<std::size_t>(b)].dataOffset);
        }
    }

    QSet<std::size_t> readMembers;
    ZipStorageLoader loader;
    const auto runPickle = [&](const std::string& rel) -> std::optional<PickleRun> {
        const int index = zip.find(rel);
        if (index < 0)
            return std::nullopt;
        const ZipMember& m = zip.members()[static_cast<std::size_t>(index)];
        readMembers.insert(static_cast<std::size_t>(index));
        const QString label = QString::fromStdString(rel);
        if (m.name != root + "/" + rel) {
            audit.add(
                QStringLiteral("ZipCaseName"), Severity::Warning,
                QStringLiteral("\"%1\" stands for %2/%3: torch looks records up ignoring case, readers that "
                               "match names exactly (or by extension) skip it")
                    .arg(QString::fromStdString(m.name), rootName, label),
                m.headerOffset);
        }
        if (m.method != 0) {
            audit.add(
                QStringLiteral("ZipCompressed"), Severity::Warning,
                QStringLiteral("%1 is deflate-compressed: torch inflates it, but torch.save never writes one")
                    .arg(label),
                m.dataOffset);
        }
        auto contents = zip.contents(m_source, m, m_limits.maxPickleBytes);
        if (!contents) {
            audit.add(QStringLiteral("ZipMalformed"), Severity::Error, contents.error().message,
                      m.dataOffset);
            return std::nullopt;
        }
        checkCrc(m, &contents.value());
        PickleStream stream;
        stream.label = label;
        stream.offset = m.dataOffset;
        stream.length = contents->size();
        if (m.method != 0)
            stream.inflated = contents.value();
        m_out.pickleBytes += contents->size();
        m_out.pickles.push_back(stream);
        const std::string& bytes = m.method != 0 ? m_out.pickles.back().inflated : contents.value();
        PickleSource src;
        src.bytes = std::as_bytes(std::span(bytes.data(), bytes.size()));
        src.base = m.dataOffset;
        src.where = label;
        PickleRun run = streams.runRead(src, 0, &loader);
        if (run.completed)
            streams.trailing(src, run.end, QStringLiteral("%1's STOP").arg(label));
        return run;
    };

    std::vector<NamedTensor> named;
    const auto nameRun = [&](const PickleRun& run, const QString& prefix) {
        TensorNamer local(m_heap, m_limits, audit);
        if (run.completed) {
            local.name(run.result, prefix);
        } else {
            for (ValueId v : run.salvage)
                local.name(v, prefix);
        }
        named.insert(named.end(), local.tensors().begin(), local.tensors().end());
    };
    if (auto run = runPickle("data.pkl")) {
        nameRun(*run, {});
    } else if (zip.find("data.pkl") < 0) {
        audit.add(
            QStringLiteral("ZipMalformed"), Severity::Error,
            QStringLiteral("the archive has no %1/data.pkl: torch.load has no object to load").arg(rootName));
    }
    if (torchScript) {
        // torch.jit.load reads the constants too; they may hold tensors of their own.
        if (auto run = runPickle("constants.pkl"))
            nameRun(*run, QStringLiteral("constants"));
    }

    // Storages: data/<key>, stored, in place.
    QSet<QString> reported;
    QHash<QString, std::size_t> usedKeys;
    const StorageLookup lookup = [&](const StorageRec& s) {
        StorageBytes b;
        const std::string rel = "data/" + s.key;
        const QString label = QString::fromStdString(rel);
        const int index = zip.find(rel);
        if (index < 0) {
            b.problem = QStringLiteral("its storage %1 is not in the archive").arg(label);
            return b;
        }
        const ZipMember& m = zip.members()[static_cast<std::size_t>(index)];
        readMembers.insert(static_cast<std::size_t>(index));
        const bool first = !reported.contains(label);
        reported.insert(label);
        if (m.method != 0) {
            if (first) {
                audit.add(
                    QStringLiteral("ZipCompressed"), Severity::Error,
                    QStringLiteral(
                        "storage %1 is deflate-compressed: torch.save never writes one, and Tensorscope "
                        "maps storages in place instead of inflating them")
                        .arg(label),
                    m.dataOffset);
            }
            b.problem = QStringLiteral("its storage %1 is compressed").arg(label);
            return b;
        }
        const std::uint64_t declared = s.numel * static_cast<std::uint64_t>(torchElementSize(s.dtype));
        if (first) {
            checkCrc(m, nullptr);
            if (m.size != declared) {
                audit.add(
                    QStringLiteral("StorageSizeMismatch"),
                    m.size < declared ? Severity::Error : Severity::Warning,
                    m.size < declared
                        ? QStringLiteral(
                              "storage %1 holds %2 bytes but its persistent id declares %3 (%4 x %5): "
                              "torch reads past the record into whatever follows")
                              .arg(label)
                              .arg(m.size)
                              .arg(declared)
                              .arg(s.numel)
                              .arg(torchDtypeName(s.dtype))
                        : QStringLiteral("storage %1 holds %2 bytes but its persistent id declares %3: torch "
                                         "uses the first %3")
                              .arg(label)
                              .arg(m.size)
                              .arg(declared),
                    m.dataOffset);
            }
        }
        b.found = true;
        b.begin = m.dataOffset;
        b.bytes = std::min(m.size, declared);
        b.bigEndian = bigEndian;
        usedKeys.insert(label, static_cast<std::size_t>(index));
        return b;
    };
    resolveTensors(m_heap, named, lookup, audit, m_out.tensors);
    for (const std::size_t index : usedKeys)
        m_out.storageBytes += zip.members()[index].size;

    // Members torch never reads.
    for (std::size_t i = 0; i < zip.members().size(); ++i) {
        if (readMembers.contains(i))
            continue;
        const ZipMember& m = zip.members()[i];
        const std::string rel = m.name.size() > root.size() && m.name.starts_with(root + "/")
                                    ? m.name.substr(root.size() + 1)
                                    : m.name;
        if (isStructuralRecord(rel) || (rel.starts_with("data/") && m.name.starts_with(root + "/")))
            continue;
        const QString label = QString::fromStdString(m.name);
        if (m.method != 0 && m.method != 8)
            continue;
        auto contents =
            zip.contents(m_source, m, std::min<std::uint64_t>(m_limits.maxPickleBytes, kMaxNestedArchive));
        if (!contents)
            continue;
        checkCrc(m, &contents.value());
        const auto bytes = std::as_bytes(std::span(contents->data(), contents->size()));
        if (contents->size() >= 4 && contents->starts_with("PK\x03\x04")) {
            audit.add(
                QStringLiteral("ZipNestedArchive"), Severity::Warning,
                QStringLiteral("member \"%1\" is a zip archive of its own (%2 bytes): torch.load never opens "
                               "it, and scanners that do not open nested archives never see into it; its "
                               "pickles are listed here")
                    .arg(label)
                    .arg(contents->size()),
                m.dataOffset);
            MemorySource nested(QByteArray(contents->data(), static_cast<qsizetype>(contents->size())),
                                label);
            scanNested(nested, m.dataOffset, m_heap, m_limits, audit, label, 1);
        } else if (looksLikePickle(bytes) || rel.ends_with(".pkl") || rel.ends_with(".pickle")) {
            audit.add(QStringLiteral("ZipExtraPickle"), Severity::Warning,
                      QStringLiteral(
                          "member \"%1\" is a pickle torch.load never runs: another loader may; its globals "
                          "are listed here")
                          .arg(label),
                      m.dataOffset);
            PickleSource src;
            src.bytes = bytes;
            src.base = m.dataOffset;
            src.where = QStringLiteral("member %1").arg(label);
            src.readByTorch = false;
            streams.scanUnread(src, 0);
        }
    }
    return {};
}

void TorchZipReader::scanNested(const ByteSource& source, std::uint64_t base, PickleHeap& heap,
                                const PickleLimits& limits, PickleAudit& audit, const QString& where,
                                int depth)
{
    PickleAudit scratch; // the nested archive's own oddities are not this file's
    auto zip = ZipArchive::read(source, scratch, where);
    if (!zip)
        return;
    PickleStreams streams(heap, audit, limits);
    for (const ZipMember& m : zip->members()) {
        if (m.method != 0 && m.method != 8)
            continue;
        auto contents =
            zip->contents(source, m, std::min<std::uint64_t>(limits.maxPickleBytes, kMaxNestedArchive));
        if (!contents)
            continue;
        const auto bytes = std::as_bytes(std::span(contents->data(), contents->size()));
        const QString label = QStringLiteral("%1!%2").arg(where, QString::fromStdString(m.name));
        if (contents->starts_with("PK\x03\x04") && depth < limits.maxNesting) {
            MemorySource nested(QByteArray(contents->data(), static_cast<qsizetype>(contents->size())),
                                label);
            scanNested(nested, base + m.dataOffset, heap, limits, audit, label, depth + 1);
        } else if (looksLikePickle(bytes) || m.name.ends_with(".pkl")) {
            PickleSource src;
            src.bytes = bytes;
            src.base = base + m.dataOffset;
            src.where = label;
            src.readByTorch = false;
            streams.scanUnread(src, 0);
        }
    }
}

} // namespace ts::pickle
