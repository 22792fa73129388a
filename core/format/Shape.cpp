#include "format/Shape.h"

#include <algorithm>

namespace ts {

Shape::Shape(std::initializer_list<std::uint64_t> dims)
{
    assign(dims.begin(), dims.size());
}

Shape::Shape(const std::uint64_t* dims, std::size_t rank)
{
    assign(dims, rank);
}

Shape::Shape(const std::vector<std::uint64_t>& dims)
{
    assign(dims.data(), dims.size());
}

Shape::Shape(const Shape& other)
{
    assign(other.data(), other.size());
}

Shape::Shape(Shape&& other) noexcept
{
    take(other);
}

Shape& Shape::operator=(const Shape& other)
{
    if (this != &other) {
        release();
        assign(other.data(), other.size());
    }
    return *this;
}

Shape& Shape::operator=(Shape&& other) noexcept
{
    if (this != &other) {
        release();
        take(other);
    }
    return *this;
}

Shape::~Shape()
{
    release();
}

void Shape::take(Shape& other) noexcept
{
    m_size = other.m_size;
    m_heapMode = other.m_heapMode;
    if (other.onHeap())
        m_heap = other.m_heap;
    else
        std::copy_n(other.m_inline, kInline, m_inline);
    other.m_size = 0;
    other.m_heapMode = 0;
    other.m_inline[0] = other.m_inline[1] = 0;
}

void Shape::growTo(std::size_t capacity)
{
    auto* block = new std::uint64_t[capacity + 1];
    block[0] = capacity;
    std::copy_n(data(), size(), block + 1);
    if (onHeap())
        delete[] m_heap;
    m_heap = block;
    m_heapMode = 1;
}

void Shape::assign(const std::uint64_t* dims, std::size_t n)
{
    m_size = 0;
    if (n > kInline)
        growTo(n);
    std::copy_n(dims, n, data());
    m_size = n;
}

void Shape::release()
{
    if (onHeap())
        delete[] m_heap;
    m_size = 0;
    m_heapMode = 0;
    m_inline[0] = m_inline[1] = 0;
}

void Shape::reserve(std::size_t rank)
{
    if (rank > capacity())
        growTo(rank);
}

void Shape::push_back(std::uint64_t dim)
{
    if (size() == capacity())
        growTo(2 * capacity());
    data()[size()] = dim;
    m_size = m_size + 1;
}

void Shape::clear()
{
    release();
}

bool operator==(const Shape& a, const Shape& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

bool operator<(const Shape& a, const Shape& b)
{
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace ts
