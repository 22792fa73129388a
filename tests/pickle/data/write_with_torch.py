"""Writes the checkpoints of torch/ with real torch (Debian's python3-torch 1.13.1), once.

Run by make_checkpoints.py --with-torch in its own process (the emulation must never share a
process with torch). Prints a JSON object: for every file written, its tensors as torch itself
loads them (name, dtype, shape, SHA-256 of the contiguous little-endian bytes).

    /usr/bin/python3 write_with_torch.py OUT_DIR
"""

import hashlib
import json
import os
import sys
import warnings
from collections import OrderedDict

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402

warnings.simplefilter("ignore")

TORCH_DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16,
    "int64": torch.int64, "int32": torch.int32, "int16": torch.int16, "int8": torch.int8,
    "uint8": torch.uint8, "bool": torch.bool, "complex64": torch.complex64,
}
ST_NAMES = {
    torch.float32: "F32", torch.float64: "F64", torch.float16: "F16", torch.bfloat16: "BF16",
    torch.int64: "I64", torch.int32: "I32", torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8",
    torch.bool: "BOOL", torch.complex64: "C64",
}


def build(obj, named):
    """The case tree with real tensors; `named` collects tensors by dotted name for views."""
    def go(o, prefix):
        if isinstance(o, cases.T):
            vals = o.values
            if o.dtype == "complex64":
                vals = [complex(a, b) for a, b in vals]
            t = torch.tensor(vals, dtype=TORCH_DTYPES[o.dtype]).reshape(o.shape)
            named[prefix[:-1]] = t
            return t
        if isinstance(o, cases.V):
            base = named[o.base]
            t = torch.as_strided(base, o.shape, o.stride, o.offset)
            named[prefix[:-1]] = t
            return t
        if isinstance(o, cases.P):
            t = torch.nn.Parameter(go(o.tensor, prefix), requires_grad=o.requires_grad)
            named[prefix[:-1]] = t
            return t
        if isinstance(o, cases.Same):
            return named[o.name]
        if isinstance(o, OrderedDict):
            return OrderedDict((k, go(v, prefix + str(k) + ".")) for k, v in o.items())
        if isinstance(o, dict):
            return {k: go(v, prefix + str(k) + ".") for k, v in o.items()}
        if isinstance(o, list):
            return [go(v, prefix + str(i) + ".") for i, v in enumerate(o)]
        if isinstance(o, tuple):
            return tuple(go(v, prefix + str(i) + ".") for i, v in enumerate(o))
        return o
    return go(obj, "")


def describe(t):
    c = t.detach().contiguous().reshape(-1)
    raw = bytes(c.view(torch.uint8).numpy()) if c.numel() else b""
    return {"dtype": ST_NAMES[t.dtype], "shape": list(t.shape), "sha256": hashlib.sha256(raw).hexdigest()}


def tensors_of(obj, prefix=""):
    out = {}
    if isinstance(obj, torch.Tensor):
        out[prefix[:-1]] = describe(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.update(tensors_of(v, prefix + str(k) + "."))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out.update(tensors_of(v, prefix + str(i) + "."))
    return out


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    report = {"torch_version": torch.__version__, "files": {}}
    for name, (layout, protocol, builder) in cases.CASES.items():
        obj = build(builder(), {})
        path = os.path.join(out_dir, name)
        torch.save(obj, path, pickle_protocol=protocol, _use_new_zipfile_serialization=(layout == "zip"))
        loaded = torch.load(path)
        report["files"][name] = {"tensors": tensors_of(loaded)}

    # Checkpoints only torch writes: a module's state_dict (with its _metadata attribute),
    # a whole pickled module (its classes are globals weights_only refuses), and TorchScript.
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.LayerNorm(3), torch.nn.Linear(3, 2))
    model[2].weight = torch.nn.Parameter(model[2].weight.detach().clone())
    sd_path = os.path.join(out_dir, "torch_state_dict.bin")
    torch.save(model.state_dict(), sd_path)
    report["files"]["torch_state_dict.bin"] = {"tensors": tensors_of(torch.load(sd_path))}

    module_path = os.path.join(out_dir, "torch_module.pt")
    torch.save(model, module_path)
    report["files"]["torch_module.pt"] = {"tensors": tensors_of(model.state_dict())}

    script_path = os.path.join(out_dir, "torchscript.pt")
    torch.jit.script(model).save(script_path)
    report["files"]["torchscript.pt"] = {"tensors": tensors_of(model.state_dict())}

    json.dump(report, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
