#!/usr/bin/python3
"""Writes seeds/fuzz_pickle: small pickles of every protocol that use the opcodes a checkpoint
does not (text arguments of protocol 0, INST and OBJ, sets, frames, out-of-band-free bytearrays),
so fuzz_pickle starts from every opcode. The checkpoints of tests/pickle/data are its other seeds.
Deterministic; standard library only.

    python3 make_pickle_seeds.py
"""
import collections
import os
import pickle

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_pickle")


class Point:  # pickled by reference as __main__.Point, with INST/OBJ in protocols 0 and 1
    def __init__(self):
        self.x, self.y = 1, [2.5, "three"]


def main():
    os.makedirs(HERE, exist_ok=True)
    values = {
        "scalars": [None, True, False, 0, -1, 255, 65535, 2**31 - 1, -2**31, 2**63, -2**70, 1.5, -0.0, float("inf"),
                    "text", "caf\u00e9 \u20ac \U0001f600", b"\x00\xff", bytearray(b"ab")],
        "containers": {"list": [1, [2, [3]]], "tuple": (1, (2,), ()), "set": {1, 2}, "frozen": frozenset({3}),
                       "dict": collections.OrderedDict(a=1, b={"c": 2})},
        "object": Point(),
        "shared": None,
    }
    shared = [1, 2]
    values["shared"] = [shared, shared, (shared,)]
    for protocol in range(0, 6):
        for name, value in values.items():
            with open(os.path.join(HERE, "p%d_%s.pkl" % (protocol, name)), "wb") as f:
                f.write(pickle.dumps(value, protocol=protocol))


if __name__ == "__main__":
    main()
