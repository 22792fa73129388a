#pragma once

#include <QString>

#include <vector>

namespace ts {

// Tensors that repeat across numbered blocks: "model.layers.7.mlp.weight" and "dense3.conv0.bias"
// belong to the families "model.layers.#.mlp.weight" and "dense#.conv0.bias".
struct LayerMember {
    int block = 0;
    int tensor = 0; // index into the names given to layerFamilies()
};

struct LayerFamily {
    QString pattern;                  // the name with the block number replaced by '#'
    std::vector<LayerMember> members; // sorted by block
};

// The first dot-separated segment that ends in digits is the block number (later numbers, such as
// "conv0", tell tensors of one block apart). Only families with two or more blocks are returned,
// sorted by pattern.
std::vector<LayerFamily> layerFamilies(const std::vector<QString>& names);

} // namespace ts
