#!/usr/bin/env python3
"""Packs the committed hicolor PNGs into Windows .ico and macOS .icns files (PNG-compressed entries,
which Windows Vista+ and macOS 10.7+ read). Called by render-icons.sh; standard library only."""
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMES = ["io.github.tensorscope.Tensorscope", "io.github.tensorscope.Tensorscope-application-x-safetensors"]
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
# (OSType, pixel size of the PNG stored in it)
ICNS_TYPES = [("icp4", 16), ("ic11", 32), ("icp5", 32), ("ic12", 64), ("ic07", 128),
              ("ic13", 256), ("ic08", 256), ("ic14", 512), ("ic09", 512)]


def png(name: str, size: int) -> bytes:
    kind = "apps" if name == NAMES[0] else "mimetypes"
    return (HERE / "hicolor" / f"{size}x{size}" / kind / f"{name}.png").read_bytes()


def ico(name: str) -> bytes:
    images = [png(name, s) for s in ICO_SIZES]
    out = bytearray(struct.pack("<HHH", 0, 1, len(images)))
    offset = 6 + 16 * len(images)
    for size, data in zip(ICO_SIZES, images):
        dim = 0 if size == 256 else size  # 0 means 256 in an ICONDIRENTRY
        out += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    for data in images:
        out += data
    return bytes(out)


def icns(name: str) -> bytes:
    body = b"".join(t.encode() + struct.pack(">I", 8 + len(d)) + d
                    for t, d in ((t, png(name, s)) for t, s in ICNS_TYPES))
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    for name in NAMES:
        (HERE / f"{name}.ico").write_bytes(ico(name))
        (HERE / f"{name}.icns").write_bytes(icns(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
