"""Writes PyTorch checkpoints the way torch.save does, with the standard library only.

torch.save pickles with the stdlib pickle module, so the pickle bytes come out the same when
the objects reduce the same way: tensors reduce to torch._utils._rebuild_tensor_v2 (or
_rebuild_parameter), storages become persistent ids, and the globals are resolved through
stand-in modules named like torch's. The archives are written by hand with struct: the zip
layout of PyTorchStreamWriter (torch/csrc's caffe2/serialize/inline_container.cc, through
miniz), the legacy stacked pickles of torch/serialization.py _legacy_save, and the ancient tar
layout that torch/serialization.py legacy_load reads.

make_checkpoints.py --check compares what this module writes with the files real torch wrote
(torch/ in this folder), byte for byte, for every case both can write.
"""

import collections
import io
import pickle
import struct
import sys
import tarfile
import types
import zlib

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001

# torch dtype name: (legacy storage class, element size, safetensors dtype)
DTYPES = {
    "float32": ("FloatStorage", 4, "F32"),
    "float64": ("DoubleStorage", 8, "F64"),
    "float16": ("HalfStorage", 2, "F16"),
    "bfloat16": ("BFloat16Storage", 2, "BF16"),
    "int64": ("LongStorage", 8, "I64"),
    "int32": ("IntStorage", 4, "I32"),
    "int16": ("ShortStorage", 2, "I16"),
    "int8": ("CharStorage", 1, "I8"),
    "uint8": ("ByteStorage", 1, "U8"),
    "bool": ("BoolStorage", 1, "BOOL"),
    "complex64": ("ComplexFloatStorage", 8, "C64"),
    "complex128": ("ComplexDoubleStorage", 16, None),
}
# dtypes torch 2.x saves through an UntypedStorage and _rebuild_tensor_v3
V3_DTYPES = {
    "float8_e4m3fn": (1, "F8_E4M3"),
    "float8_e5m2": (1, "F8_E5M2"),
    "uint16": (2, "U16"),
    "uint32": (4, "U32"),
    "uint64": (8, "U64"),
}


def _install_standins():
    """Modules named torch, torch._utils, ... whose objects pickle as torch's globals."""
    if "torch" in sys.modules and not getattr(sys.modules["torch"], "_tensorscope_standin", False):
        raise RuntimeError("torch_emulation must not run in a process that imported the real torch")
    mods = {}
    for name in ("torch", "torch._utils", "torch.storage", "torch._tensor", "torch.nn", "torch.nn.parameter"):
        m = sys.modules.get(name) or types.ModuleType(name)
        m._tensorscope_standin = True
        sys.modules[name] = m
        mods[name] = m

    def function(module, name):
        def f(*args):
            raise RuntimeError("stand-in")
        f.__module__ = module
        f.__name__ = f.__qualname__ = name
        setattr(mods[module], name, f)
        return f

    def klass(module, name):
        c = type(name, (), {"__module__": module})
        setattr(mods[module], name, c)
        return c

    class Globals:
        pass

    g = Globals()
    g.rebuild_tensor_v2 = function("torch._utils", "_rebuild_tensor_v2")
    g.rebuild_tensor_v3 = function("torch._utils", "_rebuild_tensor_v3")
    g.rebuild_parameter = function("torch._utils", "_rebuild_parameter")
    g.storage = {name: klass("torch", spec[0]) for name, spec in DTYPES.items()}
    g.untyped_storage = klass("torch", "UntypedStorage")
    g.tensor_type = {name: klass("torch", spec[0].replace("Storage", "Tensor")) for name, spec in DTYPES.items()}
    g.dtype = {}
    for name in list(DTYPES) + list(V3_DTYPES):
        # torch.float32 pickles as GLOBAL 'torch float32'
        g.dtype[name] = klass("torch", name)
    return g


G = _install_standins()
LOCATION = "cpu"
STORAGE = "storage"


def element_size(dtype):
    return DTYPES[dtype][1] if dtype in DTYPES else V3_DTYPES[dtype][0]


def safetensors_dtype(dtype):
    return DTYPES[dtype][2] if dtype in DTYPES else V3_DTYPES[dtype][1]


class Storage:
    """A storage: raw little-endian bytes of one dtype."""

    def __init__(self, dtype, data):
        self.dtype = dtype
        self.data = bytes(data)
        self.key = None  # set when saved (str(index) in the zip layout)
        assert len(self.data) % element_size(dtype) == 0

    @property
    def numel(self):
        return len(self.data) // element_size(self.dtype)


def contiguous_strides(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


class Tensor:
    def __init__(self, storage, offset=0, shape=None, stride=None, requires_grad=False, v3=False):
        self.storage = storage
        self.offset = offset
        self.shape = tuple(shape if shape is not None else (storage.numel,))
        self.stride = tuple(stride if stride is not None else contiguous_strides(self.shape))
        self.requires_grad = requires_grad
        self.v3 = v3 or storage.dtype in V3_DTYPES

    def __reduce_ex__(self, protocol):
        hooks = collections.OrderedDict()
        # Fresh tuples, as tuple(self.size()) and self.stride() are in torch: a shared tuple
        # object would be memoised and come out as BINGET.
        shape, stride = tuple(list(self.shape)), tuple(list(self.stride))
        if self.v3:
            return (G.rebuild_tensor_v3, (TypedRef(self.storage), self.offset, shape, stride,
                                          self.requires_grad, hooks, G.dtype[self.storage.dtype]))
        return (G.rebuild_tensor_v2, (TypedRef(self.storage), self.offset, shape, stride,
                                      self.requires_grad, hooks))

    def contiguous_bytes(self):
        """The elements in row-major order, as safetensors stores them."""
        es = element_size(self.storage.dtype)
        out = bytearray()
        n = 1
        for d in self.shape:
            n *= d
        index = [0] * len(self.shape)
        for _ in range(n):
            at = self.offset + sum(i * s for i, s in zip(index, self.stride))
            out += self.storage.data[at * es:(at + 1) * es]
            for axis in reversed(range(len(index))):
                index[axis] += 1
                if index[axis] < self.shape[axis]:
                    break
                index[axis] = 0
        return bytes(out)


class Parameter:
    def __init__(self, tensor, requires_grad=True):
        self.tensor = tensor
        self.requires_grad = requires_grad

    def __reduce_ex__(self, protocol):
        # torch.nn.Parameter.__reduce_ex__: (_rebuild_parameter, (self.data, requires_grad, OrderedDict()));
        # self.data is a new Tensor object each time.
        data = Tensor(self.tensor.storage, self.tensor.offset, self.tensor.shape, self.tensor.stride)
        return (G.rebuild_parameter, (data, self.requires_grad, collections.OrderedDict()))

    def contiguous_bytes(self):
        return self.tensor.contiguous_bytes()


class TypedRef:
    """What torch pickles for a tensor's storage: a fresh TypedStorage each time, same key."""

    def __init__(self, storage):
        self.storage = storage


def walk_storages(obj, seen=None, out=None):
    """Storages in the order the pickler meets them (first use)."""
    if out is None:
        out, seen = [], set()
    if isinstance(obj, Parameter):
        obj = obj.tensor
    if isinstance(obj, Tensor):
        if id(obj.storage) not in seen:
            seen.add(id(obj.storage))
            out.append(obj.storage)
    elif isinstance(obj, dict):
        for v in obj.values():
            walk_storages(v, seen, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            walk_storages(v, seen, out)
    return out


def _zip_pid(ref, id_map):
    s = ref.storage
    if s.key is None:
        s.key = str(len(id_map))
    id_map.setdefault(id(s), s.key)
    if s.dtype in V3_DTYPES:
        return (STORAGE, G.untyped_storage, s.key, LOCATION, len(s.data))
    return (STORAGE, G.storage[s.dtype], s.key, LOCATION, s.numel)


def pickle_zip_data(obj, protocol=2):
    """data.pkl as torch._save writes it; returns (bytes, storages by key)."""
    id_map = {}
    storages = {}
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=protocol)

    def persistent_id(o):
        if isinstance(o, TypedRef):
            pid = _zip_pid(o, id_map)
            storages[o.storage.key] = o.storage
            return pid
        return None

    for s in walk_storages(obj):
        s.key = None
    p.persistent_id = persistent_id
    p.dump(obj)
    return buf.getvalue(), storages


# --- the zip layout of PyTorchStreamWriter (miniz), small archives (< 4 GiB) ----------------

ALIGN = 64


def _padding(cursor, name):
    start = cursor + 30 + len(name) + 4
    mod = start % ALIGN
    pad = 0 if mod == 0 else ALIGN - mod
    return b"FB" + struct.pack("<H", pad) + b"Z" * pad


def write_zip(records, zip64_extra=False):
    """records: list of (name, bytes[, options]); options may override 'flags', 'method', 'crc',
    'local_name'. Mirrors miniz as torch drives it: data descriptors, UTF-8 flag, no
    timestamps, 64-byte aligned data, ZIP64 end records always."""
    out = bytearray()
    central = []
    for rec in records:
        name, data = rec[0], rec[1]
        opt = rec[2] if len(rec) > 2 else {}
        bname = name.encode()
        local_name = opt.get("local_name", name).encode()
        # miniz writes an empty record without a data descriptor (bit 3 clear).
        flags = opt.get("flags", 0x0808 if data else 0x0800)
        method = opt.get("method", 0)
        stored = data if method == 0 else _deflate(data)
        crc = opt.get("crc", zlib.crc32(data) & 0xFFFFFFFF)
        # The local header's sizes and CRC are zero: miniz puts them in the data descriptor.
        offset = len(out)
        extra = _padding(offset, local_name)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, method, 0, 0, 0, 0, 0, len(local_name), len(extra))
        out += local_name + extra + stored
        if flags & 0x8:
            out += struct.pack("<IIII", 0x08074B50, crc, len(stored), len(data))
        central.append((bname, flags, method, crc, len(stored), len(data), offset))
    cd_start = len(out)
    for bname, flags, method, crc, csize, usize, offset in central:
        if zip64_extra:
            # Sizes and offset moved into a ZIP64 extended information field, as miniz does
            # for members past 4 GiB; written here for small ones to exercise the reader.
            extra = struct.pack("<HHQQQ", 0x0001, 24, usize, csize, offset)
            out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, method, 0, 0, crc,
                               0xFFFFFFFF, 0xFFFFFFFF, len(bname), len(extra), 0, 0, 0, 0, 0xFFFFFFFF)
            out += bname + extra
        else:
            out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, method, 0, 0, crc, csize,
                               usize, len(bname), 0, 0, 0, 0, 0, offset)
            out += bname
    cd_size = len(out) - cd_start
    eocd64 = len(out)
    n = len(central)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, 0, 0, n, n, cd_size, cd_start)
    out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_size, cd_start, 0)
    return bytes(out)


def _deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def save_zip(obj, archive="archive", protocol=2, extra_records=(), data_pkl=None, version=b"3\n",
             byteorder=None, big_endian=False):
    """The bytes torch.save(obj, '<archive>.pt') writes (torch 1.13 names the folder after the
    file's base name). byteorder adds the record torch >= 2.1 writes; big_endian stores the
    storages byte-swapped (a checkpoint from a big-endian machine)."""
    pkl, storages = pickle_zip_data(obj, protocol)
    if data_pkl is not None:
        pkl = data_pkl(pkl)
    records = [(archive + "/data.pkl", pkl)]
    if byteorder is not None:
        records.append((archive + "/byteorder", byteorder))
    for key in sorted(storages):
        s = storages[key]
        data = byteswapped(s) if big_endian else s.data
        records.append((archive + "/data/" + key, data))
    records += list(extra_records)
    records.append((archive + "/version", version))
    return write_zip(records)


def byteswapped(storage):
    es = element_size(storage.dtype)
    if storage.dtype.startswith("complex"):
        es //= 2
    if es == 1:
        return storage.data
    d = storage.data
    return b"".join(d[i:i + es][::-1] for i in range(0, len(d), es))


# --- the legacy layout (torch.save(..., _use_new_zipfile_serialization=False)) ---------------

def pickle_legacy(obj, protocol=2, keys=None):
    """The stacked pickles and raw storages of torch.serialization._legacy_save. Storage keys
    are str(storage._cdata) in torch (addresses); `keys` gives them in order of first use."""
    storages = walk_storages(obj)
    for i, s in enumerate(storages):
        s.key = keys[i] if keys else str(140000000000000 + 64 * i)
    serialized = {}
    buf = io.BytesIO()

    def persistent_id(o):
        if isinstance(o, TypedRef):
            s = o.storage
            serialized[s.key] = s
            # str(storage._cdata) in torch: a new string object each time, so never a memo hit.
            key = s.key[:1] + s.key[1:]
            return (STORAGE, G.storage[s.dtype], key, LOCATION, s.numel, None)
        return None

    sys_info = dict(protocol_version=PROTOCOL_VERSION, little_endian=True,
                    type_sizes=dict(short=2, int=4, long=4))
    pickle.dump(MAGIC_NUMBER, buf, protocol=protocol)
    pickle.dump(PROTOCOL_VERSION, buf, protocol=protocol)
    pickle.dump(sys_info, buf, protocol=protocol)
    p = pickle.Pickler(buf, protocol=protocol)
    p.persistent_id = persistent_id
    p.dump(obj)
    keys_sorted = sorted(serialized)
    pickle.dump(keys_sorted, buf, protocol=protocol)
    for k in keys_sorted:
        s = serialized[k]
        buf.write(struct.pack("<q", s.numel))
        buf.write(s.data)
    return buf.getvalue()


# --- the ancient tar layout that torch.serialization legacy_load still reads -----------------

def save_tar(obj, protocol=2, main_pickle=None):
    """members sys_info, pickle, tensors, storages. The main pickle refers to tensors by key
    (persistent ids are the keys as strings); 'tensors' and 'storages' hold pickled headers
    followed by raw sizes, strides and data."""
    tensors = []

    def collect(o):
        if isinstance(o, Tensor):
            if all(t is not o for t in tensors):
                tensors.append(o)
        elif isinstance(o, dict):
            for v in o.values():
                collect(v)
        elif isinstance(o, (list, tuple)):
            for v in o:
                collect(v)

    collect(obj)
    storages = []
    for t in tensors:
        if all(s is not t.storage for s in storages):
            storages.append(t.storage)
    skey = {id(s): 1000 + i for i, s in enumerate(storages)}
    tkey = {id(t): 2000 + i for i, t in enumerate(tensors)}

    sbuf = io.BytesIO()
    pickle.dump(len(storages), sbuf, protocol=protocol)
    for s in storages:
        pickle.dump((skey[id(s)], LOCATION, G.storage[s.dtype]), sbuf, protocol=protocol)
        sbuf.write(struct.pack("<q", s.numel))
        sbuf.write(s.data)
    pickle.dump([], sbuf, protocol=protocol)  # storage views

    tbuf = io.BytesIO()
    pickle.dump(len(tensors), tbuf, protocol=protocol)
    for t in tensors:
        pickle.dump((tkey[id(t)], skey[id(t.storage)], G.tensor_type[t.storage.dtype]), tbuf, protocol=protocol)
        tbuf.write(struct.pack("<i", len(t.shape)) + b"\0\0\0\0")
        tbuf.write(struct.pack("<%dq" % len(t.shape), *t.shape))
        tbuf.write(struct.pack("<%dq" % len(t.stride), *t.stride))
        tbuf.write(struct.pack("<q", t.offset))

    pbuf = io.BytesIO()
    p = pickle.Pickler(pbuf, protocol=protocol)
    p.persistent_id = lambda o: str(tkey[id(o)]) if isinstance(o, Tensor) else None
    p.dump(obj)
    pkl = pbuf.getvalue() if main_pickle is None else main_pickle(pbuf.getvalue())

    sys_info = pickle.dumps(dict(protocol_version=PROTOCOL_VERSION, little_endian=True,
                                 type_sizes=dict(short=2, int=4, long=4)), protocol=protocol)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in (("sys_info", sys_info), ("pickle", pkl), ("tensors", tbuf.getvalue()),
                           ("storages", sbuf.getvalue())):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


# --- the reference safetensors writer (huggingface/safetensors tensor.rs prepare/serialize) ----

ST_ORDER = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ",
            "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"]


def _json_str(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def safetensors_bytes(tensors, metadata=None):
    """tensors: list of (name, safetensors dtype, shape, raw little-endian bytes)."""
    order = sorted(tensors, key=lambda t: (-ST_ORDER.index(t[1]), t[0].encode()))
    parts = []
    if metadata is not None:
        parts.append('"__metadata__":{' + ",".join(_json_str(k) + ":" + _json_str(v)
                                                     for k, v in metadata.items()) + "}")
    offset = 0
    for name, dtype, shape, data in order:
        parts.append(_json_str(name) + ':{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}'
                     % (dtype, ",".join(str(d) for d in shape), offset, offset + len(data)))
        offset += len(data)
    header = ("{" + ",".join(parts) + "}").encode()
    header += b" " * ((8 - len(header) % 8) % 8)
    return struct.pack("<Q", len(header)) + header + b"".join(t[3] for t in order)
