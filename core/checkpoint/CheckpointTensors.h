#pragma once

#include "format/TensorInfo.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

namespace ts {

// A tensor of a checkpoint: as its format declares it, the part that holds it, and where in that
// part its bytes start. Views and analysis use location()/byteOffset(), never the format's own
// arithmetic (8 + N + begin is the safetensors format's, not every format's).
//
// A value made on access: `info` refers to the TensorInfo its part's reader keeps. Do not keep
// its address past the statement that made it.
struct CheckpointTensor {
    const TensorInfo& info;
    int part = 0;
    std::uint64_t offset = 0; // absolute byte offset in the part's source
};

// The tensors of a checkpoint in order, over its parts' own tensor lists. A checkpoint held a
// second copy of every TensorInfo (416 MB for a header of 4 M tensors); here each part's list is
// shared with the file that parsed it, and the rest of a CheckpointTensor is computed.
class CheckpointTensors {
public:
    class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = CheckpointTensor;
        using difference_type = std::ptrdiff_t;
        using reference = CheckpointTensor;
        using pointer = void;

        Iterator() = default;
        Iterator(const CheckpointTensors* all, std::size_t i) : m_all(all), m_i(i) {}
        CheckpointTensor operator*() const { return (*m_all)[m_i]; }
        CheckpointTensor operator[](difference_type n) const { return (*m_all)[offsetBy(n)]; }
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        Iterator operator++(int)
        {
            Iterator old = *this;
            ++m_i;
            return old;
        }
        Iterator& operator--()
        {
            --m_i;
            return *this;
        }
        Iterator operator--(int)
        {
            Iterator old = *this;
            --m_i;
            return old;
        }
        Iterator& operator+=(difference_type n)
        {
            m_i = offsetBy(n);
            return *this;
        }
        Iterator& operator-=(difference_type n)
        {
            m_i = offsetBy(-n);
            return *this;
        }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& a, const Iterator& b)
        {
            return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.m_i <=> b.m_i; }

    private:
        std::size_t offsetBy(difference_type n) const
        {
            return static_cast<std::size_t>(static_cast<difference_type>(m_i) + n);
        }
        const CheckpointTensors* m_all = nullptr;
        std::size_t m_i = 0;
    };

    // Appends a part's tensors, whose data offsets count from `dataStart` in the part.
    void addPart(std::shared_ptr<const std::vector<TensorInfo>> tensors, std::uint64_t dataStart);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    CheckpointTensor operator[](std::size_t i) const
    {
        const int p = partOf(i);
        const Part& part = m_parts[static_cast<std::size_t>(p)];
        const TensorInfo& info = (*part.tensors)[i - part.first];
        return CheckpointTensor{info, p, part.dataStart + info.begin};
    }
    CheckpointTensor front() const { return (*this)[0]; }
    CheckpointTensor back() const { return (*this)[m_size - 1]; }
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, m_size); }

    // The same as (*this)[i].info, for loops that need nothing else.
    const TensorInfo& info(std::size_t i) const
    {
        const Part& part = m_parts[static_cast<std::size_t>(partOf(i))];
        return (*part.tensors)[i - part.first];
    }
    int partOf(std::size_t i) const;

private:
    struct Part {
        std::shared_ptr<const std::vector<TensorInfo>> tensors;
        std::size_t first = 0; // index of its first tensor in the checkpoint
        std::uint64_t dataStart = 0;
    };
    std::vector<Part> m_parts;
    std::size_t m_size = 0;
};

} // namespace ts
