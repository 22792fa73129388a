#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ts {

// A tensor's dimensions. Nearly every tensor has one or two, so those live inside the object and
// a header of 4 M tensors makes no allocation for its shapes (a std::vector per shape cost 32 bytes
// of heap each, about 128 MiB there). Longer shapes go to the heap; the rank is unbounded because
// the format does not bound it (a header may hold one shape of 49 M dims).
//
// Reads like a const std::vector<std::uint64_t>: index it, iterate it, compare it. The header
// includes neither <span> nor <compare>: Qt 6.4's moc follows includes and cannot parse the
// concepts behind them, and this header reaches widgets.
class Shape {
public:
    using value_type = std::uint64_t;
    using size_type = std::size_t;
    using const_iterator = const std::uint64_t*;
    using iterator = std::uint64_t*;

    Shape() noexcept = default;
    Shape(std::initializer_list<std::uint64_t> dims);
    Shape(const std::uint64_t* dims, std::size_t rank);
    Shape(const std::vector<std::uint64_t>& dims);
    Shape(const Shape& other);
    Shape(Shape&& other) noexcept;
    Shape& operator=(const Shape& other);
    Shape& operator=(Shape&& other) noexcept;
    ~Shape();

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const std::uint64_t* data() const { return onHeap() ? m_heap + 1 : m_inline; }
    std::uint64_t* data() { return onHeap() ? m_heap + 1 : m_inline; }
    const std::uint64_t* begin() const { return data(); }
    const std::uint64_t* end() const { return data() + m_size; }
    std::uint64_t* begin() { return data(); }
    std::uint64_t* end() { return data() + m_size; }
    std::uint64_t operator[](std::size_t i) const { return data()[i]; }
    std::uint64_t& operator[](std::size_t i) { return data()[i]; }
    std::uint64_t front() const { return data()[0]; }
    std::uint64_t back() const { return data()[m_size - 1]; }

    void push_back(std::uint64_t dim);
    void reserve(std::size_t rank);
    void clear();
    std::vector<std::uint64_t> toVector() const { return {begin(), end()}; }

    friend bool operator==(const Shape& a, const Shape& b);
    // Lexicographic, as std::vector orders: shapes serve as map keys when grouping tensors.
    friend bool operator<(const Shape& a, const Shape& b);

private:
    static constexpr std::size_t kInline = 2;
    // Once the dims outgrow the object they move to a heap block that starts with its capacity,
    // so the object stays two words and a size.
    bool onHeap() const { return m_heapMode; }
    std::size_t capacity() const { return onHeap() ? m_heap[0] : kInline; }
    void growTo(std::size_t capacity);
    void assign(const std::uint64_t* dims, std::size_t n);
    void release();
    void take(Shape& other) noexcept; // moves other's dims or block here; other ends empty

    std::size_t m_size : 63 = 0;
    std::size_t m_heapMode : 1 = 0;
    union {
        std::uint64_t m_inline[kInline] = {0, 0};
        std::uint64_t* m_heap;
    };
};

} // namespace ts
