#!/usr/bin/python3
"""Writes and checks the test checkpoints of tests/pickle (standard library only, except
--with-torch).

    make_checkpoints.py --check       emulate every case of cases.py and compare it byte for
                                      byte with the file real torch wrote in torch/; regenerate
                                      emulated/, hostile/, malformed/, mutants/ in memory and
                                      compare them with the committed files (a ctest runs this)
    make_checkpoints.py --write       (re)write emulated/, hostile/, malformed/, mutants/ and
                                      manifest.json
    make_checkpoints.py --with-torch  once, on a machine with Debian's python3-torch: write
                                      torch/ with write_with_torch.py, then --write, then load
                                      every emulated and hostile file with torch.load in a child
                                      process to record what torch does with it (verify_with_torch.py)

Hostile files carry the payload `echo tensorscope-test-payload`, so a torch.load that runs it
prints that line and does nothing else.
"""

import hashlib
import io
import json
import os
import pickle
import random
import struct
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402
import torch_emulation as E  # noqa: E402

CMD = "echo tensorscope-test-payload"
PACK = {"float32": "f", "float64": "d", "float16": "e", "int64": "q", "int32": "i", "int16": "h",
        "int8": "b", "uint8": "B", "bool": "?"}


# --- building emulated objects from cases --------------------------------------------------

def raw(t):
    if t.dtype == "bfloat16":
        return b"".join(struct.pack("<f", v)[2:] for v in t.values)
    if t.dtype == "complex64":
        return b"".join(struct.pack("<ff", a, b) for a, b in t.values)
    return struct.pack("<%d%s" % (len(t.values), PACK[t.dtype]), *t.values)


def build(obj):
    named = {}

    def go(o, prefix):
        if isinstance(o, cases.T):
            t = E.Tensor(E.Storage(o.dtype, raw(o)), 0, o.shape)
            named[prefix[:-1]] = t
            return t
        if isinstance(o, cases.V):
            b = named[o.base]
            t = E.Tensor(b.storage if isinstance(b, E.Tensor) else b.tensor.storage, o.offset, o.shape, o.stride)
            named[prefix[:-1]] = t
            return t
        if isinstance(o, cases.P):
            t = E.Parameter(go(o.tensor, prefix), o.requires_grad)
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


def describe(obj):
    """name -> dtype, shape, sha256 of the contiguous bytes, for every tensor of an emulated tree."""
    out = {}

    def go(o, prefix):
        if isinstance(o, (E.Tensor, E.Parameter)):
            t = o.tensor if isinstance(o, E.Parameter) else o
            out[prefix[:-1]] = {"dtype": E.safetensors_dtype(t.storage.dtype), "shape": list(t.shape),
                                "sha256": hashlib.sha256(t.contiguous_bytes()).hexdigest()}
        elif isinstance(o, dict):
            for k, v in o.items():
                go(v, prefix + str(k) + ".")
        elif isinstance(o, (list, tuple)):
            for i, v in enumerate(o):
                go(v, prefix + str(i) + ".")
    go(obj, "")
    return out


def expected_safetensors(obj):
    """What converting the checkpoint must write: every tensor, contiguous and little-endian, laid
    out by the reference writer, with the metadata safetensors' convert.py writes."""
    tensors = []

    def go(o, prefix):
        if isinstance(o, (E.Tensor, E.Parameter)):
            t = o.tensor if isinstance(o, E.Parameter) else o
            tensors.append((prefix[:-1], E.safetensors_dtype(t.storage.dtype), list(t.shape), t.contiguous_bytes()))
        elif isinstance(o, dict):
            for k, v in o.items():
                go(v, prefix + str(k) + ".")
        elif isinstance(o, (list, tuple)):
            for i, v in enumerate(o):
                go(v, prefix + str(i) + ".")
    go(obj, "")
    return E.safetensors_bytes(tensors, metadata={"format": "pt"})


def legacy_keys(data):
    """The storage keys (addresses) a torch-written legacy file uses, in order of first use."""
    f = io.BytesIO(data)
    for _ in range(3):
        pickle.load(f)
    keys = []

    class Keys(pickle.Unpickler):
        def find_class(self, module, name):
            return OrderedDict if name == "OrderedDict" else (lambda *a, **k: None)

        def persistent_load(self, pid):
            if pid[2] not in keys:
                keys.append(pid[2])

    Keys(f).load()
    return keys


def emulate_case(name, reference=None):
    layout, protocol, builder = cases.CASES[name]
    obj = build(builder())
    if layout == "zip":
        return E.save_zip(obj, archive=name.rsplit(".", 1)[0], protocol=protocol), obj
    keys = legacy_keys(reference) if reference else None
    return E.pickle_legacy(obj, protocol=protocol, keys=keys), obj


# --- a small pickle assembler for the hostile files -----------------------------------------

def u(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def sb(s):  # protocol 3 SHORT_BINBYTES
    b = s.encode()
    return b"C" + bytes([len(b)]) + b


def su(s):  # protocol 4
    b = s.encode()
    return b"\x8c" + bytes([len(b)]) + b


def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def sglob(module, name):  # protocol 4 STACK_GLOBAL
    return su(module) + su(name) + b"\x93"


def call(func, *args):
    """func(*args) then POP: leaves the stack as it was. MARK/TUPLE work in every protocol."""
    return func + b"(" + b"".join(args) + b"tR0"


def str_list(*items):
    return b"(" + b"".join(u(i) for i in items) + b"l"


def inject(pkl, payload):
    """The payload runs first, then the original pickle continues unchanged."""
    if pkl[:1] == b"\x80":
        return pkl[:2] + payload + pkl[2:]
    return payload + pkl


def payload_pickle(payload, protocol=2):
    return b"\x80" + bytes([protocol]) + payload + b"N."


def small_state_dict():
    return OrderedDict([("weight", E.Tensor(E.Storage("float32", struct.pack("<4f", 1, 2, 3, 4)), 0, [2, 2])),
                        ("bias", E.Tensor(E.Storage("float32", struct.pack("<2f", 0.5, -0.5)), 0, [2]))])


def zip_with(name, payload=None, protocol=2, **kw):
    archive = name.rsplit(".", 1)[0]
    obj = small_state_dict()
    data_pkl = (lambda p: inject(p, payload)) if payload is not None else None
    return E.save_zip(obj, archive=archive, protocol=protocol, data_pkl=data_pkl, **kw), obj


def zip_records(name, payload=None, protocol=2):
    """The records of a small zip checkpoint, for tricks that change the archive itself."""
    archive = name.rsplit(".", 1)[0]
    obj = small_state_dict()
    pkl, storages = E.pickle_zip_data(obj, protocol)
    if payload is not None:
        pkl = inject(pkl, payload)
    records = [[archive + "/data.pkl", pkl, {}]]
    for key in sorted(storages):
        records.append([archive + "/data/" + key, storages[key].data, {}])
    records.append([archive + "/version", b"3\n", {}])
    return archive, records, obj


def os_system():
    return call(glob("os", "system"), u(CMD))


def legacy_with(obj, stage, payload):
    """A legacy file whose pickle number `stage` (0 magic, 1 protocol, 2 sys_info, 3 main,
    4 storage keys) runs the payload first."""
    data = E.pickle_legacy(obj)
    f = io.BytesIO(data)
    bounds = []
    for _ in range(5):
        start = f.tell()
        for _op in __import__("pickletools").genops(f):
            pass
        bounds.append((start, f.tell()))
    start, end = bounds[stage]
    return data[:start] + inject(data[start:end], payload) + data[end:]


# --- the file sets ------------------------------------------------------------------------

def hostile_files():
    """name -> (bytes, dangerous globals as Tensorscope names them, expected finding codes,
    what it shows). Every one names at least one dangerous global."""
    H = {}

    def add(name, data, dangerous, codes=(), note=""):
        H[name] = (data, sorted(dangerous), sorted(set(codes) | {"PickleDangerousGlobal"}), note)

    add("h_os_system.pt", zip_with("h_os_system.pt", os_system())[0], ["os.system"],
        note="os.system before the state dict")
    add("h_posix_system.pt", zip_with("h_posix_system.pt", call(glob("posix", "system"), u(CMD)))[0],
        ["posix.system"], note="posix.system, what pickle writes for os.system on Linux")
    add("h_nt_system.pt", zip_with("h_nt_system.pt", call(glob("nt", "system"), u(CMD)))[0], ["nt.system"],
        note="nt.system, os.system on Windows")
    add("h_subprocess_run.pt",
        zip_with("h_subprocess_run.pt", call(glob("subprocess", "run"), str_list("sh", "-c", CMD)))[0],
        ["subprocess.run"], note="subprocess.run(['sh', '-c', ...])")
    add("h_builtins_eval.pt",
        zip_with("h_builtins_eval.pt", call(glob("builtins", "eval"), u("__import__('os').system('%s')" % CMD)))[0],
        ["builtins.eval"], note="eval of a Python expression")
    add("h_builtin_exec.pt",
        zip_with("h_builtin_exec.pt", call(glob("__builtin__", "exec"), u("import os; os.system('%s')" % CMD)))[0],
        ["builtins.exec"], note="exec under its Python 2 name __builtin__ (pickle maps it)")
    getattr_import = (glob("builtins", "getattr") + b"(" + glob("builtins", "__import__") + b"(" + u("os")
                      + b"tR" + u("system") + b"tR" + b"(" + u(CMD) + b"tR0")
    add("h_getattr_import.pt", zip_with("h_getattr_import.pt", getattr_import)[0],
        ["builtins.__import__", "builtins.getattr"], note="getattr(__import__('os'), 'system')(...)")
    add("h_runpy.pt",
        zip_with("h_runpy.pt", call(glob("runpy", "_run_code"), u("import os; os.system('%s')" % CMD), b"}"))[0],
        ["runpy._run_code"], note="runpy._run_code runs a source string")
    add("h_webbrowser.pt",
        zip_with("h_webbrowser.pt", call(glob("webbrowser", "open"), u("https://example.invalid/")))[0],
        ["webbrowser.open"], note="webbrowser.open (not run when verifying)")
    runsource = (sglob("code", "InteractiveInterpreter.runsource") + b"(" + sglob("code", "InteractiveInterpreter")
                 + b")R" + su("import os; os.system('%s')" % CMD) + b"tR0")
    add("h_code_runsource.pt", zip_with("h_code_runsource.pt", runsource, protocol=4)[0],
        ["code.InteractiveInterpreter", "code.InteractiveInterpreter.runsource"],
        note="code.InteractiveInterpreter().runsource(...), a dotted name (protocol 4)")
    # _posixsubprocess.fork_exec, which it calls, takes the program and its arguments as bytes.
    spawn = call(glob("multiprocessing.util", "spawnv_passfds"), sb("/bin/sh"),
                 b"(" + sb("sh") + sb("-c") + sb(CMD) + b"l", b")")
    add("h_spawnv_passfds.pt", zip_with("h_spawnv_passfds.pt", spawn, protocol=3)[0],
        ["multiprocessing.util.spawnv_passfds"], note="multiprocessing.util.spawnv_passfds starts a process")
    chain = sglob("torch", "serialization.os.system") + b"(" + su(CMD) + b"tR0"
    add("h_attr_chain.pt", zip_with("h_attr_chain.pt", chain, protocol=4)[0], ["torch.serialization.os.system"],
        note="torch.serialization.os.system: an attribute chain from an allowed module to os")
    mc = (glob("_operator", "methodcaller") + b"(" + u("system") + u(CMD) + b"tR"
          + b"(" + glob("importlib", "import_module") + b"(" + u("os") + b"tR" + b"tR0")
    add("h_methodcaller.pt", zip_with("h_methodcaller.pt", mc)[0],
        ["_operator.methodcaller", "importlib.import_module"],
        note="_operator.methodcaller('system', ...)(importlib.import_module('os'))")
    inner = payload_pickle(os_system())
    nested = glob("pickle", "loads") + b"(" + b"C" + bytes([len(inner)]) + inner + b"tR0"
    add("h_pickle_loads.pt", zip_with("h_pickle_loads.pt", nested, protocol=3)[0], ["os.system", "pickle.loads"],
        codes=["PickleNestedPickle"], note="pickle.loads of a pickle held as bytes")

    # Structural tricks, each hiding os.system from one reader or another.
    archive, recs, _ = zip_records("h_after_stop.pt")
    recs[0][1] = recs[0][1] + payload_pickle(os_system())
    add("h_after_stop.pt", E.write_zip(recs), ["os.system"], ["PickleTrailingBytes"],
        note="a second pickle after data.pkl's STOP (torch.load stops at STOP)")
    archive, recs, _ = zip_records("h_extra_member.pt")
    recs.insert(1, [archive + "/extra.pkl", payload_pickle(os_system()), {}])
    add("h_extra_member.pt", E.write_zip(recs), ["os.system"], ["ZipExtraPickle"],
        note="a pickle member torch.load never reads")
    archive, recs, _ = zip_records("h_nested_zip.pt")
    recs.insert(1, [archive + "/extra.pt", zip_with("inner.pt", os_system())[0], {}])
    add("h_nested_zip.pt", E.write_zip(recs), ["os.system"], ["ZipNestedArchive"],
        note="a whole malicious checkpoint stored inside the archive")
    archive, recs, _ = zip_records("h_crc_mismatch.pt", os_system())
    recs[0][2]["crc"] = 0x12345678
    add("h_crc_mismatch.pt", E.write_zip(recs), ["os.system"], ["ZipCrcMismatch"],
        note="data.pkl's CRC-32 is wrong; torch does not check it")
    archive, recs, _ = zip_records("h_local_name.pt", os_system())
    recs[0][2]["local_name"] = archive + "/notes.txt"
    add("h_local_name.pt", E.write_zip(recs), ["os.system"], ["ZipNameMismatch"],
        note="data.pkl's local header names another file; torch uses the central directory")
    archive, recs, _ = zip_records("h_flag_first.pt", os_system())
    recs.insert(0, [archive + "/.lock", b"locked", {"flags": 0x0809}])
    add("h_flag_first.pt", E.write_zip(recs), ["os.system"], ["ZipFlagBits"],
        note="an 'encrypted' member first in the directory; torch never reads it")
    archive, recs, obj = zip_records("h_case_name.pt", protocol=1)
    recs[0][0] = archive + "/DATA.PKL"
    recs[0][1] = inject(recs[0][1], os_system())
    add("h_case_name.pt", E.write_zip(recs), ["os.system"], ["ZipCaseName"],
        note="DATA.PKL in protocol 1 (no PROTO opcode); torch finds records case-insensitively")
    archive, recs, _ = zip_records("h_deflated.pt", os_system())
    recs[0][2]["method"] = 8
    add("h_deflated.pt", E.write_zip(recs), ["os.system"], ["ZipCompressed"],
        note="data.pkl deflate-compressed; torch inflates it")
    add("h_legacy_main.pt", legacy_with(small_state_dict(), 3, os_system()), ["os.system"],
        note="legacy layout, os.system in the main pickle after the magic number")
    magic = payload_pickle(b"")[:2] + glob("builtins", "eval") + b"(" + u(
        "0x1950a86a20f9469cfc6c + __import__('os').system('%s')" % CMD) + b"tR."
    legacy = E.pickle_legacy(small_state_dict())
    f = io.BytesIO(legacy)
    pickle.load(f)
    add("h_legacy_magic_eval.pt", magic + legacy[f.tell():], ["builtins.eval"], ["LegacyMagicComputed"],
        note="legacy layout whose magic number is computed by eval")
    add("h_legacy_sys_info.pt", legacy_with(small_state_dict(), 2, os_system()), ["os.system"],
        note="legacy layout, os.system in the sys_info pickle")
    add("h_legacy_keys.pt", legacy_with(small_state_dict(), 4, os_system()), ["os.system"],
        note="legacy layout, os.system in the storage keys pickle")
    add("h_tar.pt", E.save_tar(small_state_dict(), main_pickle=lambda p: inject(p, os_system())), ["os.system"],
        note="the ancient tar layout, os.system in its 'pickle' member")
    return H


def malformed_files():
    """name -> (bytes, expected codes, note). Broken or odd structure, no dangerous global."""
    M = {}

    def add(name, data, codes, note):
        M[name] = (data, sorted(codes), note)

    archive, recs, _ = zip_records("m_storage_short.pt")
    recs[1][1] = recs[1][1][:6]
    add("m_storage_short.pt", E.write_zip(recs), ["StorageSizeMismatch"],
        "data/0 holds 6 of the 16 bytes its storage declares (torch reads past the record)")
    archive, recs, _ = zip_records("m_storage_long.pt")
    recs[1][1] = recs[1][1] + b"\0" * 8
    add("m_storage_long.pt", E.write_zip(recs), ["StorageSizeMismatch"], "data/0 has 8 bytes more than declared")
    archive, recs, _ = zip_records("m_storage_missing.pt")
    del recs[2]
    add("m_storage_missing.pt", E.write_zip(recs), ["StorageMissing"], "data/1 is not in the archive")
    obj = OrderedDict([("big", E.Tensor(E.Storage("float32", b"\0" * 16), 2, [2, 2]))])
    add("m_view_oob.pt", E.save_zip(obj, archive="m_view_oob"), ["ViewOutOfBounds"],
        "a [2, 2] view at offset 2 of a 4-element storage")
    data = bytearray(E.pickle_legacy(small_state_dict()))
    at = len(data) - (8 + 8) - (8 + 16)  # the first storage's element count (bias: 2, weight: 4)
    struct.pack_into("<q", data, at, 3)
    add("m_legacy_size_mismatch.pt", bytes(data), ["StorageSizeMismatch"],
        "legacy layout: a raw storage's element count disagrees with its pickle")
    add("m_legacy_truncated.pt", E.pickle_legacy(small_state_dict())[:-10], ["StorageSizeMismatch"],
        "legacy layout cut 10 bytes short")
    archive, recs, _ = zip_records("m_pickle_truncated.pt")
    recs[0][1] = recs[0][1][:-1]
    add("m_pickle_truncated.pt", E.write_zip(recs), ["PickleTruncated"],
        "data.pkl ends just before its STOP (its state dict is still shown)")
    archive, recs, _ = zip_records("m_stack_underflow.pt")
    recs[0][1] = b"\x80\x02R."
    add("m_stack_underflow.pt", E.write_zip(recs), ["PickleStackFault"], "REDUCE on an empty stack")
    archive, recs, _ = zip_records("m_mark_missing.pt")
    recs[0][1] = b"\x80\x02K\x01K\x02t."
    add("m_mark_missing.pt", E.write_zip(recs), ["PickleStackFault"], "TUPLE without a MARK")
    archive, recs, _ = zip_records("m_memo_missing.pt")
    recs[0][1] = b"\x80\x02h\xc8."
    add("m_memo_missing.pt", E.write_zip(recs), ["PickleMemoFault"], "BINGET of memo 200, never stored")
    archive, recs, _ = zip_records("m_length_past_end.pt")
    recs[0][1] = b"\x80\x02X\xff\xff\xff\x7fabc"
    add("m_length_past_end.pt", E.write_zip(recs), ["PickleLengthPastEnd"],
        "BINUNICODE of 2 GiB in a 12-byte pickle")
    archive, recs, _ = zip_records("m_bad_opcode.pt")
    recs[0][1] = b"\x80\x02\xff."
    add("m_bad_opcode.pt", E.write_zip(recs), ["PickleBadOpcode"], "opcode 0xff")
    archive, recs, _ = zip_records("m_huge_memo_index.pt")
    recs[0][1] = inject(recs[0][1], b"N" + b"r\xff\xff\xff\xff" + b"0")
    add("m_huge_memo_index.pt", E.write_zip(recs), ["PickleMemoIndex"],
        "LONG_BINPUT 4294967295: Python's unpickler would size its memo for four billion entries")
    archive, recs, _ = zip_records("m_compressed_storage.pt")
    recs[1][2]["method"] = 8
    add("m_compressed_storage.pt", E.write_zip(recs), ["ZipCompressed"], "data/0 is deflate-compressed")
    archive, recs, _ = zip_records("m_no_data_pkl.pt")
    del recs[0]
    add("m_no_data_pkl.pt", E.write_zip(recs), ["ZipMalformed"], "no data.pkl")
    archive, recs, _ = zip_records("m_flag_bits.pt")
    recs.append([archive + "/.lock", b"x", {"flags": 0x0809}])
    add("m_flag_bits.pt", E.write_zip(recs), ["ZipFlagBits"], "a member marked encrypted")
    archive, recs, _ = zip_records("m_crc.pt")
    recs[1][2]["crc"] = 0
    add("m_crc.pt", E.write_zip(recs), ["ZipCrcMismatch"], "data/0's CRC-32 is wrong")
    archive, recs, _ = zip_records("m_trailing_garbage.pt")
    recs[0][1] = recs[0][1] + b"\x00garbage"
    add("m_trailing_garbage.pt", E.write_zip(recs), ["PickleTrailingBytes"], "bytes after STOP that are no pickle")
    archive, recs, _ = zip_records("m_protocol_99.pt")
    recs[0][1] = b"\x80\x63" + recs[0][1][2:]
    add("m_protocol_99.pt", E.write_zip(recs), ["PickleProtocol"], "PROTO 99")
    # 2^40 paths to one tensor through shared tuples: a walk that follows every path never ends.
    body = E.pickle_zip_data(small_state_dict())[0][2:-1]  # the dict, without PROTO and STOP
    laughs = b"\x80\x02" + body + b"r" + struct.pack("<I", 1000) + b"\x85" + b"r" + struct.pack("<I", 1001) + b"0"
    for i in range(40):
        get = b"j" + struct.pack("<I", 1001 + i)
        laughs += get + get + b"\x86" + b"r" + struct.pack("<I", 1002 + i) + b"0"
    laughs += b"j" + struct.pack("<I", 1041) + b"."
    archive, recs, _ = zip_records("m_billion_laughs.pt")
    recs[0][1] = laughs
    add("m_billion_laughs.pt", E.write_zip(recs), ["PickleLimit"],
        "40 levels of pairs of the same tuple: 2^40 paths to each tensor")
    deep = b"\x80\x02" + b"]" * 100000 + b"a" * 99999 + b"."
    archive, recs, _ = zip_records("m_deep_nesting.pt")
    recs[0][1] = deep
    add("m_deep_nesting.pt", E.write_zip(recs), ["PickleLimit"], "100,000 nested lists (no tensor)")
    return M


def emulated_files():
    """Benign checkpoints torch 1.13 cannot write: name -> (bytes, emulated tree, note)."""
    F = {}
    # The tar layout predates complex dtypes: torch has no ComplexFloatTensor class to name.
    tar_tensors = cases.dtype_tensors()
    del tar_tensors["c64"]
    obj = build(tar_tensors)
    F["e_tar_dtypes.pt"] = (E.save_tar(obj), obj, "the ancient tar layout")
    obj = build(cases.view_tensors())
    pkl, storages = E.pickle_zip_data(obj)
    records = [("e_zip64/data.pkl", pkl)] + [("e_zip64/data/" + k, storages[k].data) for k in sorted(storages)]
    records.append(("e_zip64/version", b"3\n"))
    F["e_zip64.pt"] = (E.write_zip(records, zip64_extra=True), obj, "sizes and offsets in ZIP64 extra fields")
    obj = build(cases.dtype_tensors())
    F["e_big_endian.pt"] = (E.save_zip(obj, archive="archive", byteorder=b"big", big_endian=True), obj,
                            "torch >= 2.1 on a big-endian machine: byteorder 'big', storages byte-swapped")
    obj = OrderedDict([
        ("f8", E.Tensor(E.Storage("float8_e4m3fn", bytes([0x38, 0xb8, 0x7e, 0x00])), 0, [2, 2])),
        ("f8e5", E.Tensor(E.Storage("float8_e5m2", bytes([0x3c, 0xbc])), 0, [2])),
        ("u16", E.Tensor(E.Storage("uint16", struct.pack("<3H", 1, 2, 65535)), 0, [3])),
        ("u32", E.Tensor(E.Storage("uint32", struct.pack("<2I", 7, 4000000000)), 0, [2])),
        ("f32", E.Tensor(E.Storage("float32", struct.pack("<2f", 1, 2)), 0, [2])),
    ])
    F["e_torch2_v3.pt"] = (E.save_zip(obj, archive="archive", byteorder=b"little"), obj,
                           "torch 2.x: float8 and unsigned dtypes through _rebuild_tensor_v3 and UntypedStorage")
    return F


def mutants(seed_files):
    """Deterministic mutants of benign files: flipped bytes, cut files, spliced ranges."""
    rng = random.Random(18)
    out = {}
    for name, data in seed_files:
        base = name.rsplit(".", 1)[0]
        for i in range(4):
            b = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            out["x_%s_flip%d.pt" % (base, i)] = bytes(b)
        out["x_%s_cut.pt" % base] = data[:rng.randrange(len(data))]
        a, c = sorted(rng.randrange(len(data)) for _ in range(2))
        out["x_%s_splice.pt" % base] = data[:a] + data[c:] + data[a:c]
    return out


def generated():
    """Every generated file, by relative path, and the manifest describing them."""
    files = {}
    manifest = {"hostile": {}, "malformed": {}, "emulated": {}, "mutants": [], "cases": {}}
    for name, (data, dangerous, codes, note) in hostile_files().items():
        files["hostile/" + name] = data
        manifest["hostile"][name] = {"dangerous": dangerous, "codes": codes, "note": note}
    for name, (data, codes, note) in malformed_files().items():
        files["malformed/" + name] = data
        manifest["malformed"][name] = {"codes": codes, "note": note}
    for name, (data, obj, note) in emulated_files().items():
        files["emulated/" + name] = data
        manifest["emulated"][name] = {"tensors": describe(obj), "note": note}
    seeds = [(n, open(os.path.join(HERE, "torch", n), "rb").read()) for n in ("zip_dtypes.pt", "legacy_views.pt")]
    seeds.append(("e_tar_dtypes.pt", files["emulated/e_tar_dtypes.pt"]))
    for name, data in mutants(seeds).items():
        files["mutants/" + name] = data
        manifest["mutants"].append(name)
    for name in cases.CASES:
        obj = emulate_case(name)[1]
        manifest["cases"][name] = {"tensors": describe(obj)}
        files["expected/" + name.rsplit(".", 1)[0] + ".safetensors"] = expected_safetensors(obj)
    for name, (data, obj, note) in emulated_files().items():
        files["expected/" + name.rsplit(".", 1)[0] + ".safetensors"] = expected_safetensors(obj)
    return files, manifest


def check():
    failures = []
    for name in cases.CASES:
        ref = open(os.path.join(HERE, "torch", name), "rb").read()
        data, _ = emulate_case(name, ref)
        if data != ref:
            failures.append("torch/%s: the emulation differs from torch's bytes" % name)
    files, manifest = generated()
    for rel, data in files.items():
        path = os.path.join(HERE, rel)
        if not os.path.exists(path) or open(path, "rb").read() != data:
            failures.append("%s: differs from what make_checkpoints.py writes (run --write)" % rel)
    with open(os.path.join(HERE, "manifest.json")) as f:
        committed = json.load(f)
    for key in ("hostile", "malformed", "emulated", "mutants", "cases"):
        if committed.get(key) != json.loads(json.dumps(manifest[key])):
            failures.append("manifest.json: section %s differs (run --write)" % key)
    for f in failures:
        print(f)
    print("%d torch cases, %d generated files checked, %d failures" % (len(cases.CASES), len(files), len(failures)))
    return 1 if failures else 0


def write(torch_section=None):
    files, manifest = generated()
    for rel, data in files.items():
        path = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    path = os.path.join(HERE, "manifest.json")
    old = json.load(open(path)) if os.path.exists(path) else {}
    manifest["torch"] = torch_section if torch_section is not None else old.get("torch", {})
    manifest["verified_with_torch"] = old.get("verified_with_torch", {})
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return manifest


def with_torch():
    torch_dir = os.path.join(HERE, "torch")
    report = json.loads(subprocess.run(["/usr/bin/python3", os.path.join(HERE, "write_with_torch.py"), torch_dir],
                                       check=True, capture_output=True, text=True).stdout)
    write(report)
    verified = json.loads(subprocess.run(["/usr/bin/python3", os.path.join(HERE, "verify_with_torch.py"), HERE],
                                         check=True, capture_output=True, text=True).stdout)
    path = os.path.join(HERE, "manifest.json")
    manifest = json.load(open(path))
    manifest["verified_with_torch"] = verified
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "--check"
    if mode == "--check":
        sys.exit(check())
    if mode == "--write":
        write()
        sys.exit(0)
    if mode == "--with-torch":
        sys.exit(with_torch())
    print(__doc__)
    sys.exit(2)
