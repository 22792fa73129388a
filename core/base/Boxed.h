#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace ts {

// std::optional's interface for a value that is rarely there, kept on the heap: the empty case
// costs a pointer instead of the value's size. TensorStats holds the real and imaginary parts of
// a C64 tensor this way; as optionals they made every tensor's statistics 900 bytes, 180 MB
// for a 100k-tensor model scanned on open (and its quantiles: 64 bytes a tensor the NaN/Inf
// check never fills). Copies copy the value.
template <class T> class Boxed {
public:
    Boxed() = default;
    Boxed(const T& value) : m_value(std::make_unique<T>(value)) {}
    Boxed(T&& value) : m_value(std::make_unique<T>(std::move(value))) {}
    Boxed(const Boxed& other) : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr) {}
    Boxed(Boxed&&) noexcept = default;
    Boxed& operator=(const Boxed& other)
    {
        if (this != &other)
            m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
        return *this;
    }
    Boxed& operator=(Boxed&&) noexcept = default;
    Boxed& operator=(T value)
    {
        m_value = std::make_unique<T>(std::move(value));
        return *this;
    }
    Boxed& operator=(const std::optional<T>& value)
    {
        m_value = value ? std::make_unique<T>(*value) : nullptr;
        return *this;
    }

    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return *m_value; }
    const T& operator*() const { return *m_value; }
    T* operator->() { return m_value.get(); }
    const T* operator->() const { return m_value.get(); }
    void reset() { m_value.reset(); }

    // As std::optional compares: both empty, or both there and equal.
    friend bool operator==(const Boxed& a, const Boxed& b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }
    friend bool operator==(const Boxed& a, const std::optional<T>& b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }

private:
    std::unique_ptr<T> m_value;
};

} // namespace ts
