#pragma once

#include "tensor/TensorTreeModel.h"

#include <QAbstractItemModel>

namespace ts::test {

// The tensor rows reachable under `parent` of a tensor tree (or a proxy of one), walked through
// the model's own rowCount() and index(): what a user could expand to.
inline int countTensors(const QAbstractItemModel* model, const QModelIndex& parent = {})
{
    int n = 0;
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        if (index.data(ui::TensorTreeModel::TensorIndexRole).toInt() >= 0)
            ++n;
        n += countTensors(model, index);
    }
    return n;
}

} // namespace ts::test
