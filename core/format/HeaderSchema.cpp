#include "format/HeaderSchema.h"

#include "base/Format.h"
#include "format/HeaderScanner.h"
#include "format/JsonNumberNormalizer.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

#include <simdjson.h>

#include <map>

namespace ts {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// serde_json refuses to nest deeper than this (its recursion limit of 128 fails on the 128th
// level); simdjson would go to 1024.
constexpr int kMaxJsonDepth = 127;

// Warnings of one kind listed one by one; the rest are counted in a summary. A header can hold
// millions of tensors that each earn the same warning.
constexpr int kMaxWarningsPerCode = 20;

// By value: value_unsafe() on a temporary result returns a reference into the temporary.
simdjson::dom::array asArray(element e)
{
    simdjson::dom::array a;
    if (e.get_array().get(a) != simdjson::SUCCESS)
        return {};
    return a;
}

simdjson::dom::object asObject(element e)
{
    simdjson::dom::object o;
    if (e.get_object().get(o) != simdjson::SUCCESS)
        return {};
    return o;
}

QString fromUtf8(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

int depthOf(element e, int limit)
{
    if (limit < 0)
        return 0;
    int deepest = 0;
    if (e.type() == element_type::ARRAY) {
        for (element child : asArray(e))
            deepest = std::max(deepest, depthOf(child, limit - 1));
        return deepest + 1;
    }
    if (e.type() == element_type::OBJECT) {
        for (auto field : asObject(e))
            deepest = std::max(deepest, depthOf(field.value, limit - 1));
        return deepest + 1;
    }
    return 0;
}

QString typeName(element e)
{
    switch (e.type()) {
    case element_type::ARRAY:
        return QStringLiteral("an array");
    case element_type::OBJECT:
        return QStringLiteral("an object");
    case element_type::INT64:
    case element_type::UINT64:
        return QStringLiteral("an integer");
    case element_type::DOUBLE:
        return QStringLiteral("a floating-point number");
    case element_type::STRING:
        return QStringLiteral("a string");
    case element_type::BOOL:
        return QStringLiteral("a boolean");
    case element_type::NULL_VALUE:
        return QStringLiteral("null");
    }
    return QStringLiteral("a value");
}

QString moreWarnings(int count)
{
    return count == 1
               ? QStringLiteral("1 more warning of this kind is not listed")
               : QStringLiteral("%1 more warnings of this kind are not listed").arg(formatGrouped(count));
}

QString arrayFormMessage(const QString& name)
{
    return QStringLiteral("tensor \"%1\" is written as an array [dtype, shape, data_offsets] instead of an "
                          "object; the reference accepts it, other readers may not")
        .arg(name);
}

// The header as the one-pass scanner read it, with the warnings the DOM reader would have given:
// the scanner accepts no leniency but the array form.
Header fromScan(HeaderScanner::Scan scan)
{
    Header header;
    header.tensors = std::move(scan.tensors);
    header.metadata = std::move(scan.metadata);
    const QString code = QStringLiteral("TensorEntryArrayForm");
    for (const std::size_t i : scan.firstArrayForms) {
        const QString& name = header.tensors[i].name;
        header.warnings.push_back(
            Diagnostic{code, Severity::Warning, arrayFormMessage(name), name, std::nullopt});
    }
    if (scan.arrayForms > kMaxWarningsPerCode) {
        header.warnings.push_back(
            Diagnostic{code,
                       Severity::Warning,
                       moreWarnings(static_cast<int>(scan.arrayForms - kMaxWarningsPerCode)),
                       {},
                       std::nullopt});
    }
    return header;
}

class SchemaReader {
public:
    SchemaReader(const QString& file, Header& out) : m_file(file), m_out(out) {}

    Result<void> readTop(element root);

private:
    Error fail(const QString& message, const QString& tensor = {}) const
    {
        return makeError(ErrorCode::InvalidHeaderDeserialization, m_file,
                         QStringLiteral("invalid header: ") + message, tensor, 8);
    }
    void warn(const QString& code, const QString& message, const QString& tensor = {})
    {
        if (++m_warningsByCode[code] <= kMaxWarningsPerCode)
            m_out.warnings.push_back(Diagnostic{code, Severity::Warning, message, tensor, std::nullopt});
    }
    void summarizeWarnings()
    {
        for (const auto& [code, count] : m_warningsByCode) {
            if (count > kMaxWarningsPerCode) {
                m_out.warnings.push_back(Diagnostic{
                    code, Severity::Warning, moreWarnings(count - kMaxWarningsPerCode), {}, std::nullopt});
            }
        }
    }

    Result<void> readMetadata(element value);
    Result<void> readTensor(const QString& name, element value);
    Result<Dtype> readDtype(const QString& name, element value);
    Result<std::uint64_t> readSize(const QString& name, const char* field, element value);
    Result<void> readShape(const QString& name, element value, Shape& shape);
    Result<void> readOffsets(const QString& name, element value, TensorInfo& info);

    const QString& m_file;
    Header& m_out;
    bool m_sawMetadata = false;
    std::map<QString, int> m_warningsByCode; // ordered: summaries come out in a stable order
};

Result<void> SchemaReader::readTop(element root)
{
    if (root.type() != element_type::OBJECT)
        return fail(QStringLiteral("the header must be a JSON object, but it is %1").arg(typeName(root)));
    // Typed fields reject nested values on their own; only ignored extra fields can nest freely,
    // so the depth limit is checked there (see readTensor) instead of walking the whole document.

    QHash<QString, qsizetype> indexOfName; // name -> position of its latest entry in m_out.tensors
    QHash<QString, int> timesSeen;
    std::vector<bool> superseded;
    const simdjson::dom::object top = asObject(root);
    m_out.tensors.reserve(top.size());
    indexOfName.reserve(static_cast<qsizetype>(top.size()));
    for (auto field : top) {
        const QString key = fromUtf8(field.key);
        if (key == QLatin1String("__metadata__")) {
            if (m_sawMetadata)
                return fail(QStringLiteral("the key \"__metadata__\" appears twice"));
            m_sawMetadata = true;
            if (auto r = readMetadata(field.value); !r)
                return r;
            continue;
        }
        if (auto r = readTensor(key, field.value); !r)
            return r;
        superseded.push_back(false);
        const qsizetype latest = static_cast<qsizetype>(m_out.tensors.size()) - 1;
        auto it = indexOfName.find(key);
        if (it != indexOfName.end()) {
            // Last one wins, as in the reference's HashMap; the earlier entry disappears.
            superseded[static_cast<std::size_t>(*it)] = true;
            *it = latest;
            ++timesSeen[key];
        } else {
            indexOfName.insert(key, latest);
        }
    }
    if (!timesSeen.isEmpty()) {
        // Entries before the first superseded one stay where they are: a self-move leaves a
        // std::vector unspecified (libstdc++ empties it), which once wiped their shapes.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < m_out.tensors.size(); ++i) {
            if (superseded[i])
                continue;
            if (kept != i)
                m_out.tensors[kept] = std::move(m_out.tensors[i]);
            ++kept;
        }
        m_out.tensors.resize(kept);
    }
    for (auto it = timesSeen.cbegin(); it != timesSeen.cend(); ++it) {
        {
            warn(QStringLiteral("DuplicateTensorName"),
                 QStringLiteral("tensor \"%1\" is declared %2 times; the last declaration is used, as the "
                                "reference does, but other readers may use the first")
                     .arg(it.key())
                     .arg(it.value() + 1),
                 it.key());
        }
    }
    summarizeWarnings();
    return {};
}

Result<void> SchemaReader::readMetadata(element value)
{
    if (value.type() == element_type::NULL_VALUE) {
        warn(QStringLiteral("MetadataNull"),
             QStringLiteral("\"__metadata__\" is null; the reference reads that as no metadata, the "
                            "format's README allows only a string map"));
        return {};
    }
    if (value.type() != element_type::OBJECT)
        return fail(QStringLiteral("\"__metadata__\" must be an object of strings, but it is %1")
                        .arg(typeName(value)));
    std::vector<Metadata::Entry> entries;
    QHash<QString, std::size_t> position; // Metadata::contains() is linear: quadratic on a million keys
    QStringList duplicates;
    for (auto entry : asObject(value)) {
        const QString key = fromUtf8(entry.key);
        if (entry.value.type() != element_type::STRING) {
            return fail(QStringLiteral("metadata value of \"%1\" must be a string, but it is %2")
                            .arg(key, typeName(entry.value)));
        }
        QString text = fromUtf8(entry.value.get_string().value_unsafe());
        if (auto it = position.constFind(key); it != position.constEnd()) {
            // Last value wins, at the first position, as Metadata::set() does.
            if (duplicates.size() < kMaxWarningsPerCode)
                duplicates << key;
            entries[*it].second = std::move(text);
        } else {
            position.insert(key, entries.size());
            entries.emplace_back(key, std::move(text));
        }
    }
    Metadata metadata = Metadata::fromUniqueEntries(std::move(entries));
    if (!duplicates.isEmpty()) {
        duplicates.removeDuplicates();
        warn(QStringLiteral("DuplicateMetadataKey"),
             QStringLiteral("metadata %1 %2 %3 more than once; the last value is used, other readers "
                            "may use the first")
                 .arg(QLatin1String(duplicates.size() == 1 ? "key" : "keys"),
                      QLatin1Char('"') + duplicates.join(QStringLiteral("\", \"")) + QLatin1Char('"'),
                      QLatin1String(duplicates.size() == 1 ? "appears" : "appear")));
    }
    m_out.metadata = std::move(metadata);
    return {};
}

Result<Dtype> SchemaReader::readDtype(const QString& name, element value)
{
    std::string_view text;
    if (value.type() == element_type::STRING) {
        text = value.get_string().value_unsafe();
    } else if (value.type() == element_type::OBJECT) {
        // serde's externally tagged form of a unit enum variant: {"F32": null}.
        auto object = asObject(value);
        if (object.size() != 1)
            return fail(QStringLiteral("tensor \"%1\": dtype object must have exactly one entry").arg(name),
                        name);
        auto only = *object.begin();
        if (only.value.type() != element_type::NULL_VALUE) {
            return fail(QStringLiteral("tensor \"%1\": dtype {\"%2\": ...} must map to null")
                            .arg(name, fromUtf8(only.key)),
                        name);
        }
        text = only.key;
        warn(QStringLiteral("DtypeEnumMapForm"),
             QStringLiteral(
                 "tensor \"%1\" gives its dtype as {\"%2\": null} instead of a string; the reference "
                 "accepts it, other readers may not")
                 .arg(name, fromUtf8(text)),
             name);
    } else {
        return fail(
            QStringLiteral("tensor \"%1\": dtype must be a string, but it is %2").arg(name, typeName(value)),
            name);
    }
    const auto dtype = dtypeFromName(text);
    if (!dtype) {
        return fail(
            QStringLiteral("tensor \"%1\" has unknown dtype \"%2\" (dtypes are case-sensitive: BOOL, U8, "
                           "F16, BF16, F32, F8_E4M3, ...)")
                .arg(name, fromUtf8(text)),
            name);
    }
    return *dtype;
}

Result<std::uint64_t> SchemaReader::readSize(const QString& name, const char* field, element value)
{
    if (value.type() == element_type::UINT64)
        return value.get_uint64().value_unsafe();
    if (value.type() == element_type::INT64) {
        const std::int64_t v = value.get_int64().value_unsafe();
        if (v >= 0)
            return static_cast<std::uint64_t>(v);
        return fail(QStringLiteral("tensor \"%1\": %2 has the negative value %3")
                        .arg(name, QLatin1String(field))
                        .arg(v),
                    name);
    }
    return fail(QStringLiteral("tensor \"%1\": %2 must hold non-negative integers below 2^64, found %3")
                    .arg(name, QLatin1String(field), typeName(value)),
                name);
}

Result<void> SchemaReader::readShape(const QString& name, element value, Shape& shape)
{
    if (value.type() != element_type::ARRAY)
        return fail(
            QStringLiteral("tensor \"%1\": shape must be an array, but it is %2").arg(name, typeName(value)),
            name);
    const simdjson::dom::array dims = asArray(value);
    shape.reserve(dims.size());
    for (element dim : dims) {
        auto d = readSize(name, "shape", dim);
        if (!d)
            return d.error();
        shape.push_back(*d);
    }
    return {};
}

Result<void> SchemaReader::readOffsets(const QString& name, element value, TensorInfo& info)
{
    if (value.type() != element_type::ARRAY) {
        return fail(QStringLiteral("tensor \"%1\": data_offsets must be an array [begin, end], but it is %2")
                        .arg(name, typeName(value)),
                    name);
    }
    auto array = asArray(value);
    if (array.size() != 2) {
        return fail(QStringLiteral("tensor \"%1\": data_offsets must have exactly 2 entries, it has %2")
                        .arg(name)
                        .arg(array.size()),
                    name);
    }
    auto begin = readSize(name, "data_offsets", array.at(0).value_unsafe());
    if (!begin)
        return begin.error();
    auto end = readSize(name, "data_offsets", array.at(1).value_unsafe());
    if (!end)
        return end.error();
    info.begin = *begin;
    info.end = *end;
    return {};
}

Result<void> SchemaReader::readTensor(const QString& name, element value)
{
    TensorInfo info;
    info.name = name;
    if (value.type() == element_type::ARRAY) {
        // serde lets a struct be given as a sequence of its fields in declaration order.
        auto array = asArray(value);
        if (array.size() != 3) {
            return fail(
                QStringLiteral("tensor \"%1\" is an array of %2 values; expected an object with dtype, "
                               "shape and data_offsets")
                    .arg(name)
                    .arg(array.size()),
                name);
        }
        auto dtype = readDtype(name, array.at(0).value_unsafe());
        if (!dtype)
            return dtype.error();
        info.dtype = *dtype;
        if (auto r = readShape(name, array.at(1).value_unsafe(), info.shape); !r)
            return r;
        if (auto r = readOffsets(name, array.at(2).value_unsafe(), info); !r)
            return r;
        warn(QStringLiteral("TensorEntryArrayForm"), arrayFormMessage(name), name);
        m_out.tensors.push_back(std::move(info));
        return {};
    }
    if (value.type() != element_type::OBJECT) {
        return fail(
            QStringLiteral("\"%1\" must be a tensor entry (an object with dtype, shape and data_offsets), "
                           "but it is %2")
                .arg(name, typeName(value)),
            name);
    }
    bool haveDtype = false, haveShape = false, haveOffsets = false;
    QStringList extra;
    for (auto field : asObject(value)) {
        const std::string_view key = field.key;
        bool* seen = nullptr;
        if (key == "dtype")
            seen = &haveDtype;
        else if (key == "shape")
            seen = &haveShape;
        else if (key == "data_offsets")
            seen = &haveOffsets;
        if (!seen) {
            // Root object (1) > tensor entry (2) > this value: serde counts every level.
            if (2 + depthOf(field.value, kMaxJsonDepth) > kMaxJsonDepth)
                return fail(QStringLiteral("tensor \"%1\": JSON nested deeper than %2 levels")
                                .arg(name)
                                .arg(kMaxJsonDepth),
                            name);
            extra << fromUtf8(key);
            continue;
        }
        if (*seen)
            return fail(QStringLiteral("tensor \"%1\" has the field \"%2\" twice").arg(name, fromUtf8(key)),
                        name);
        *seen = true;
        if (seen == &haveDtype) {
            auto dtype = readDtype(name, field.value);
            if (!dtype)
                return dtype.error();
            info.dtype = *dtype;
        } else if (seen == &haveShape) {
            if (auto r = readShape(name, field.value, info.shape); !r)
                return r;
        } else if (auto r = readOffsets(name, field.value, info); !r) {
            return r;
        }
    }
    const char* missing = !haveDtype     ? "dtype"
                          : !haveShape   ? "shape"
                          : !haveOffsets ? "data_offsets"
                                         : nullptr;
    if (missing)
        return fail(QStringLiteral("tensor \"%1\" has no \"%2\" field").arg(name, QLatin1String(missing)),
                    name);
    if (!extra.isEmpty()) {
        warn(QStringLiteral("ExtraTensorField"),
             QStringLiteral("tensor \"%1\" has %2 %3 that the format does not define; the reference ignores "
                            "%4, other readers may not")
                 .arg(name, QLatin1String(extra.size() == 1 ? "field" : "fields"),
                      QLatin1Char('"') + extra.join(QStringLiteral("\", \"")) + QLatin1Char('"'),
                      QLatin1String(extra.size() == 1 ? "it" : "them")),
             name);
    }
    m_out.tensors.push_back(std::move(info));
    return {};
}

QString describeSyntaxError(const char* json, std::size_t size, simdjson::error_code code,
                            std::optional<std::uint64_t>& offset)
{
    // simdjson does not say where; Qt's parser does, and is only asked on this error path.
    QJsonParseError qtError{};
    QJsonDocument::fromJson(QByteArray::fromRawData(json, static_cast<qsizetype>(size)), &qtError);
    QString what = QString::fromLatin1(simdjson::error_message(code));
    if (size == 0)
        return QStringLiteral("the header is empty (length prefix 0): it must hold a JSON object");
    if (qtError.error != QJsonParseError::NoError) {
        offset = 8 + static_cast<std::uint64_t>(qtError.offset);
        return QStringLiteral("the header is not valid JSON near header byte %1 (file byte %2): %3")
            .arg(qtError.offset)
            .arg(*offset)
            .arg(qtError.errorString());
    }
    return QStringLiteral("the header is not valid JSON: ") + what;
}

} // namespace

Result<Header> readHeaderSchema(const char* json, std::size_t size, std::size_t capacity, const QString& file)
{
    if (auto scan = HeaderScanner::scan(std::string_view(json, size), kMaxWarningsPerCode))
        return fromScan(std::move(*scan));
    return readHeaderSchemaWithDom(json, size, capacity, file);
}

Result<Header> readHeaderSchemaWithDom(const char* json, std::size_t size, std::size_t capacity,
                                       const QString& file)
{
    simdjson::dom::parser parser;
    QByteArray normalized; // keeps a rewritten copy alive for the parse
    simdjson::dom::element root;

    auto parse = [&](const char* text, std::size_t len, std::size_t cap) {
        return parser
            .parse(reinterpret_cast<const std::uint8_t*>(text), len, cap < len + simdjson::SIMDJSON_PADDING)
            .get(root);
    };
    simdjson::error_code code = simdjson::SUCCESS;
    if (mayContainNegativeZero(json, size)) {
        if (auto rewritten = normalizeJsonNumbers(json, size)) {
            normalized = std::move(*rewritten);
            normalized.reserve(normalized.size() + static_cast<qsizetype>(simdjson::SIMDJSON_PADDING));
            code = parse(normalized.constData(), static_cast<std::size_t>(normalized.size()), 0);
        } else {
            code = parse(json, size, capacity);
        }
    } else {
        code = parse(json, size, capacity);
        if (code == simdjson::NUMBER_ERROR) {
            if (auto rewritten = normalizeJsonNumbers(json, size)) {
                normalized = std::move(*rewritten);
                code = parse(normalized.constData(), static_cast<std::size_t>(normalized.size()), 0);
            }
        }
    }
    if (code != simdjson::SUCCESS) {
        std::optional<std::uint64_t> offset;
        const QString message = describeSyntaxError(json, size, code, offset);
        return makeError(ErrorCode::InvalidHeaderDeserialization, file, message, {}, offset);
    }
    Header header;
    SchemaReader reader(file, header);
    if (auto r = reader.readTop(root); !r)
        return r.error();
    return header;
}

} // namespace ts
