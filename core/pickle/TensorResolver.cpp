#include "pickle/TensorResolver.h"

#include "base/Format.h"

#include <QHash>

namespace ts::pickle {
namespace {

bool mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out)
{
    return !__builtin_mul_overflow(a, b, &out);
}

bool add(std::uint64_t a, std::uint64_t b, std::uint64_t& out)
{
    return !__builtin_add_overflow(a, b, &out);
}

// Elements from the storage offset to just past the last element the view reaches; 0 when the
// view has none. False on overflow.
bool extent(const TensorRec& t, std::uint64_t& elements, std::uint64_t& count)
{
    count = 1;
    for (std::uint64_t d : t.shape) {
        if (!mul(count, d, count))
            return false;
    }
    if (count == 0) {
        elements = 0;
        return true;
    }
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        std::uint64_t step = 0;
        if (!mul(t.shape[i] - 1, t.stride[i], step) || !add(last, step, last))
            return false;
    }
    return add(t.storageOffset, last, elements) && add(elements, 1, elements);
}

} // namespace

void resolveTensors(const PickleHeap& heap, const std::vector<NamedTensor>& named,
                    const StorageLookup& lookup, PickleAudit& audit, std::vector<TorchTensor>& out)
{
    QHash<QString, int> used;
    // The same bytes seen the same way under two names: tied weights (lm_head and embed_tokens).
    QHash<QString, QString> byView;
    for (const NamedTensor& n : named) {
        TensorRec rec;
        if (heap.kind(n.value) == Kind::Storage) {
            // A storage saved on its own: shown as the 1-D tensor of its elements.
            const StorageRec& s = heap.storageRec(n.value);
            rec.storage = n.value;
            rec.dtype = s.dtype;
            rec.shape = {s.numel};
            rec.stride = {1};
            rec.offset = s.offset;
        } else {
            rec = heap.tensorRec(n.value);
        }
        const StorageRec& storage = heap.storageRec(rec.storage);
        const auto st = safetensorsDtype(rec.dtype);
        if (!st) {
            audit.add(QStringLiteral("UnsupportedDtype"), Severity::Warning,
                      QStringLiteral("\"%1\" is %2, which safetensors has no dtype for: not shown")
                          .arg(n.name, torchDtypeName(rec.dtype)),
                      rec.offset, n.name, FindingKind::Note);
            continue;
        }
        const std::uint64_t elementSize = static_cast<std::uint64_t>(torchElementSize(rec.dtype));
        std::uint64_t needElements = 0;
        std::uint64_t count = 0;
        std::uint64_t needBytes = 0;
        std::uint64_t declared = 0;
        if (!extent(rec, needElements, count) || !mul(needElements, elementSize, needBytes) ||
            !mul(storage.numel, static_cast<std::uint64_t>(torchElementSize(storage.dtype)), declared)) {
            audit.add(QStringLiteral("ViewOutOfBounds"), Severity::Error,
                      QStringLiteral(
                          "\"%1\" has a size and stride %2 / %3 whose extent overflows 64 bits: not shown")
                          .arg(n.name, formatShape(rec.shape), formatShape(rec.stride)),
                      rec.offset, n.name);
            continue;
        }
        if (needBytes > declared) {
            audit.add(QStringLiteral("ViewOutOfBounds"), Severity::Error,
                      QStringLiteral(
                          "\"%1\" (%2 at storage offset %3, stride %4) reaches byte %5 of storage \"%6\", "
                          "which has %7 bytes: torch refuses it (set_ checks the bounds); not shown")
                          .arg(n.name, formatShape(rec.shape))
                          .arg(rec.storageOffset)
                          .arg(formatShape(rec.stride))
                          .arg(needBytes)
                          .arg(QString::fromStdString(storage.key))
                          .arg(declared),
                      rec.offset, n.name);
            continue;
        }
        const StorageBytes where = lookup(storage);
        if (!where.found) {
            audit.add(QStringLiteral("StorageMissing"), Severity::Error,
                      QStringLiteral("\"%1\": %2; not shown").arg(n.name, where.problem), rec.offset, n.name);
            continue;
        }
        if (needBytes > where.bytes) {
            audit.add(
                QStringLiteral("StorageSizeMismatch"), Severity::Error,
                QStringLiteral("\"%1\" needs %2 bytes of storage \"%3\", the file holds %4 (at byte %5): "
                               "torch would read past them; not shown")
                    .arg(n.name)
                    .arg(needBytes)
                    .arg(QString::fromStdString(storage.key))
                    .arg(where.bytes)
                    .arg(where.begin),
                where.begin, n.name);
            continue;
        }
        TorchTensor t;
        t.name = n.name;
        if (const int seen = used.value(n.name, 0); seen > 0) {
            t.name = QStringLiteral("%1#%2").arg(n.name).arg(seen + 1);
            audit.add(QStringLiteral("DuplicateTensorName"), Severity::Warning,
                      QStringLiteral(
                          "two tensors have the path \"%1\" (a key with a dot in it, or a key given twice "
                          "in different places); the second is shown as \"%2\"")
                          .arg(n.name, t.name),
                      rec.offset, t.name, FindingKind::Note);
        }
        used[n.name] += 1;
        t.dtype = *st;
        t.elementSize = static_cast<int>(elementSize);
        t.shape = rec.shape;
        t.stride = rec.stride;
        t.storageOffset = rec.storageOffset;
        t.storageBegin = where.begin;
        t.storageBytes = std::min(declared, where.bytes);
        t.bigEndian = where.bigEndian && elementSize > 1;
        t.complexHalves = rec.dtype == TorchDtype::Complex64;
        t.parameter = rec.parameter;
        t.storageKey = QString::fromStdString(storage.key);
        const QString view = QStringLiteral("%1 %2 %3 %4 %5")
                                 .arg(t.storageBegin)
                                 .arg(t.storageOffset)
                                 .arg(formatShape(t.shape), formatShape(t.stride))
                                 .arg(static_cast<int>(t.dtype));
        if (const auto it = byView.constFind(view); it != byView.constEnd()) {
            audit.add(QStringLiteral("TiedTensor"), Severity::Info,
                      QStringLiteral(
                          "\"%1\" is the same bytes as \"%2\" (tied weights); a conversion writes each name "
                          "as its own copy")
                          .arg(t.name, *it),
                      t.firstByte(), t.name, FindingKind::Note);
        } else {
            byView.insert(view, t.name);
        }
        if (!t.contiguous()) {
            audit.add(
                QStringLiteral("StridedView"), Severity::Info,
                QStringLiteral("\"%1\" is a view with strides %2 into storage \"%3\": its elements are read "
                               "from where they lie, and a conversion writes them contiguous")
                    .arg(t.name, formatShape(t.stride), t.storageKey),
                t.firstByte(), t.name, FindingKind::Note);
        }
        out.push_back(std::move(t));
    }
}

std::uint64_t TorchTensor::elementCount() const
{
    std::uint64_t n = 1;
    for (std::uint64_t d : shape)
        n *= d;
    return n;
}

bool TorchTensor::contiguous() const
{
    std::uint64_t expected = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] != 1 && stride[i] != expected)
            return shape[i] == 0 || elementCount() == 0;
        expected *= shape[i];
    }
    return true;
}

QString torchLayoutName(TorchLayout layout)
{
    switch (layout) {
    case TorchLayout::Zip:
        return QStringLiteral("PyTorch zip");
    case TorchLayout::Legacy:
        return QStringLiteral("PyTorch legacy");
    case TorchLayout::Tar:
        return QStringLiteral("PyTorch tar");
    case TorchLayout::TorchScript:
        return QStringLiteral("TorchScript");
    case TorchLayout::Pickle:
        return QStringLiteral("Python pickle");
    }
    return QStringLiteral("PyTorch");
}

} // namespace ts::pickle
