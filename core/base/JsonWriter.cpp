#include "base/JsonWriter.h"

#include "format/HeaderSerializer.h"

#include <cmath>

namespace ts {

void JsonWriter::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out.append(',');
        m_first.back() = false;
    }
}

JsonWriter& JsonWriter::beginObject()
{
    separate();
    m_out.append('{');
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    m_out.append('}');
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    separate();
    m_out.append('[');
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    m_out.append(']');
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(const QString& name)
{
    separate();
    appendJsonString(m_out, name);
    m_out.append(':');
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(const QString& text)
{
    separate();
    appendJsonString(m_out, text);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t n)
{
    separate();
    m_out.append(QByteArray::number(static_cast<qulonglong>(n)));
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t n)
{
    separate();
    m_out.append(QByteArray::number(static_cast<qlonglong>(n)));
    return *this;
}

JsonWriter& JsonWriter::value(double d)
{
    separate();
    if (!std::isfinite(d))
        m_out.append("null");
    else
        m_out.append(QByteArray::number(d, 'g', 17));
    return *this;
}

JsonWriter& JsonWriter::value(bool b)
{
    separate();
    m_out.append(b ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separate();
    m_out.append("null");
    return *this;
}

JsonWriter& JsonWriter::raw(const QByteArray& json)
{
    separate();
    m_out.append(json);
    return *this;
}

} // namespace ts
