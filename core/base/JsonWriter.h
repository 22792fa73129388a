#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ts {

// A small streaming JSON builder for machine-readable output. Unlike QJsonDocument it keeps
// 64-bit integers exact (shapes like [0, 2^62, 2^62] are valid) and key order as written.
class JsonWriter {
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(const QString& name);
    JsonWriter& value(const QString& text);
    JsonWriter& value(const char* text) { return value(QString::fromUtf8(text)); }
    JsonWriter& value(std::uint64_t n);
    JsonWriter& value(std::int64_t n);
    JsonWriter& value(int n) { return value(static_cast<std::int64_t>(n)); }
    JsonWriter& value(double d); // NaN and infinities become null (JSON has no spelling for them)
    JsonWriter& value(bool b);
    JsonWriter& null();
    // A pre-serialized JSON value, inserted as is.
    JsonWriter& raw(const QByteArray& json);

    const QByteArray& data() const { return m_out; }
    // Hands over what is written so far and keeps the nesting, so a listing of millions of
    // entries can go out as it is built instead of being held whole.
    QByteArray take() { return std::exchange(m_out, {}); }

private:
    void separate();
    QByteArray m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace ts
