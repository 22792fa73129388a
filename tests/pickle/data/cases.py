"""The benign checkpoints both real torch (write_with_torch.py) and the stdlib emulation
(torch_emulation.py) write, described once so the two can be compared byte for byte.

A case is a tree of plain values (dict, OrderedDict, list, tuple, int, float, str, None, bool)
whose leaves may be:
  T(dtype, values, shape)            a new tensor with its own storage
  V(base, offset, shape, stride)     a view of the storage of the tensor named `base`
  P(tensor, requires_grad)           a torch.nn.Parameter
  Same(name)                         the very object of the tensor called `name` (pickled once,
                                     then referred to through the memo)
Tensor names are the dotted paths Tensorscope shows (dict keys, list indices).
"""

from collections import OrderedDict


class T:
    def __init__(self, dtype, values, shape=None):
        self.dtype, self.values = dtype, values
        self.shape = shape


class V:
    def __init__(self, base, offset, shape, stride):
        self.base, self.offset, self.shape, self.stride = base, offset, shape, stride


class P:
    def __init__(self, tensor, requires_grad=True):
        self.tensor, self.requires_grad = tensor, requires_grad


class Same:
    def __init__(self, name):
        self.name = name


def dtype_tensors():
    return OrderedDict([
        ("weight", T("float32", [1.5, -2.0, 3.25, 0.0, -0.5, 1e-3], [2, 3])),
        ("f64", T("float64", [1.0, -1.0, 2.5], [3])),
        ("f16", T("float16", [0.5, -0.25, 65504.0, 1.0], [2, 2])),
        ("bf16", T("bfloat16", [1.0, -2.0, 0.5, 256.0], [4])),
        ("i64", T("int64", [1, -2, 1 << 40], [3])),
        ("i32", T("int32", [7, -7], [2])),
        ("i16", T("int16", [300, -300], [2])),
        ("i8", T("int8", [-128, 0, 127], [3])),
        ("u8", T("uint8", [0, 1, 254, 255], [4])),
        ("mask", T("bool", [True, False, True], [3])),
        ("c64", T("complex64", [(1.0, -1.0), (0.5, 2.0)], [2])),
        ("scalar", T("float32", [42.0], [])),
        ("empty", T("float32", [], [0, 3])),
    ])


def view_tensors():
    base = T("float32", [float(i) for i in range(24)], [4, 6])
    return OrderedDict([
        ("base", base),
        ("row", V("base", 6, [6], [1])),
        ("col", V("base", 2, [4], [6])),
        ("transposed", V("base", 0, [6, 4], [1, 6])),
        ("strided", V("base", 0, [4, 3], [6, 2])),
        ("expanded", V("base", 1, [3, 4], [0, 1])),
        ("tied", Same("base")),
        ("alias", V("base", 0, [4, 6], [6, 1])),
        ("q", V("base", 0, [3, 4], [4, 1])),
        ("k", V("base", 12, [3, 4], [4, 1])),
        ("param", P(T("float32", [0.25, 0.5, 0.75, 1.0], [2, 2]))),
        ("frozen", P(T("float16", [1.0, 2.0], [2]), requires_grad=False)),
    ])


def nested_checkpoint():
    return {
        "state_dict": OrderedDict([
            ("encoder.weight", T("float32", [0.1, 0.2, 0.3, 0.4], [2, 2])),
            ("encoder.bias", T("float32", [0.0, 1.0], [2])),
        ]),
        "epoch": 3,
        "global_step": 120,
        "optimizer_states": [{
            "state": {0: {"step": 5, "exp_avg": T("float32", [0.01, 0.02, 0.03, 0.04], [2, 2])}},
            "param_groups": [{"lr": 0.001, "betas": (0.9, 0.999), "params": [0, 1]}],
        }],
        "hyper_parameters": {"lr": 0.001, "name": "tiny", "layers": [2, 2]},
        "pytorch-lightning_version": "1.9.0",
    }


# name: (layout, pickle protocol, object builder). Files are written as NAME with the archive
# folder named after the file's base name, as torch 1.13 does.
CASES = {
    "zip_dtypes.pt": ("zip", 2, dtype_tensors),
    "zip_views.pt": ("zip", 2, view_tensors),
    "zip_nested.ckpt": ("zip", 2, nested_checkpoint),
    "zip_protocol1.pt": ("zip", 1, dtype_tensors),
    "zip_protocol4.pt": ("zip", 4, view_tensors),
    "zip_protocol5.pt": ("zip", 5, dtype_tensors),
    "legacy_dtypes.pt": ("legacy", 2, dtype_tensors),
    "legacy_views.pt": ("legacy", 2, view_tensors),
    "legacy_nested.ckpt": ("legacy", 2, nested_checkpoint),
}


def flatten(obj, prefix=""):
    """(name, leaf) for every tensor leaf, in the order of the tree."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += flatten(v, prefix + str(k) + ".")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out += flatten(v, prefix + str(i) + ".")
    elif isinstance(obj, (T, V, P, Same)):
        out.append((prefix[:-1], obj))
    return out
