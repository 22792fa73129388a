#pragma once

#include "format/Dtype.h"
#include "format/TensorInfo.h"

#include <QRegularExpression>
#include <QString>

#include <optional>

namespace ts {

// Which tensors the window's filter box lets through: a name pattern (substring, glob or regular
// expression, all case-insensitive) and a dtype. A value: the window compiles one on the UI thread
// (a bad pattern is reported as it is typed) and hands a copy to the job that filters the tree.
class TensorNameFilter {
public:
    enum class Mode { Substring, Glob, Regex };

    // Lets every tensor through.
    TensorNameFilter() = default;
    // An invalid regular expression gives a filter that lets every tensor of the dtype through and
    // says why in error().
    TensorNameFilter(Mode mode, const QString& pattern, std::optional<Dtype> dtype);

    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    // Whether any tensor can be left out: a valid non-empty pattern or a dtype.
    bool isActive() const { return m_byName || m_dtype.has_value(); }
    bool accepts(const TensorInfo& tensor) const;

private:
    Mode m_mode = Mode::Substring;
    bool m_byName = false;
    QString m_substring;
    QRegularExpression m_regex;
    std::optional<Dtype> m_dtype;
    QString m_error;
};

} // namespace ts
