#!/usr/bin/env python3
"""Writes the .safetensors file with the most tensors that fit under the 100 MB header cap, for
LIMITS.md: zero-size U8 tensors in the array form the reference accepts, named by the shortest
distinct names in order ("0".."z", then two characters, ...), all at data offset 0.

usage: make_dense_header.py OUT [--cap BYTES]
"""
import itertools
import string
import struct
import sys

ALPHABET = string.digits + string.ascii_letters


def names():
    for length in itertools.count(1):
        for chars in itertools.product(ALPHABET, repeat=length):
            yield "".join(chars)


def main():
    out = sys.argv[1]
    cap = int(sys.argv[sys.argv.index("--cap") + 1]) if "--cap" in sys.argv else 100_000_000
    parts = []
    size = 2  # the braces
    for name in names():
        entry = '"%s":["U8",[0],[0,0]]' % name
        if size + len(entry) + 1 > cap:
            break
        parts.append(entry)
        size += len(entry) + 1
    header = ("{" + ",".join(parts) + "}").encode()
    header += b" " * (-len(header) % 8)
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
    print("%d tensors, header %d bytes" % (len(parts), len(header)))


if __name__ == "__main__":
    main()
