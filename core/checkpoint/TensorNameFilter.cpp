#include "checkpoint/TensorNameFilter.h"

#include "base/Glob.h"

namespace ts {

TensorNameFilter::TensorNameFilter(Mode mode, const QString& pattern, std::optional<Dtype> dtype)
    : m_mode(mode), m_byName(!pattern.isEmpty()), m_substring(pattern), m_dtype(dtype)
{
    if (!m_byName || mode == Mode::Substring)
        return;
    m_regex = mode == Mode::Glob ? globToRegularExpression(pattern, Qt::CaseInsensitive)
                                 : QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!m_regex.isValid()) {
        m_error = m_regex.errorString();
        m_byName = false;
        return;
    }
    m_regex.optimize();
}

bool TensorNameFilter::accepts(const TensorInfo& tensor) const
{
    if (m_dtype && tensor.dtype != *m_dtype)
        return false;
    if (!m_byName)
        return true;
    if (m_mode == Mode::Substring)
        return tensor.name.contains(m_substring, Qt::CaseInsensitive);
    return m_regex.match(tensor.name).hasMatch();
}

} // namespace ts
