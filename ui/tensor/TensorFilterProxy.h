#pragma once

#include "format/Dtype.h"
#include "format/TensorInfo.h"

#include <QRegularExpression>
#include <QSortFilterProxyModel>

#include <optional>

namespace ts::ui {

// Filters the tensor tree by name (substring, glob or regular expression, case-insensitive) and
// dtype. Only tensors are matched; groups stay visible while one of their tensors matches.
class TensorFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Mode { Substring, Glob, Regex };

    explicit TensorFilterProxy(QObject* parent = nullptr);

    // Returns false (and keeps showing everything) when a regular expression does not compile.
    bool setNameFilter(Mode mode, const QString& pattern);
    void setDtypeFilter(std::optional<Dtype> dtype);
    // Both at once, refiltering once.
    bool setFilter(Mode mode, const QString& pattern, std::optional<Dtype> dtype);
    // Whether one tensor passes, without building proxy mappings.
    bool acceptsTensor(const TensorInfo& tensor) const;
    // Tensors of the source model that pass; a plain loop, much cheaper than walking the proxy.
    int countMatches() const;
    bool isFiltering() const { return m_active || m_dtype.has_value(); }
    QString patternError() const { return m_error; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool compile(Mode mode, const QString& pattern);

    bool m_active = false;
    Mode m_mode = Mode::Substring;
    QString m_substring;
    QRegularExpression m_regex;
    std::optional<Dtype> m_dtype;
    QString m_error;
};

} // namespace ts::ui
