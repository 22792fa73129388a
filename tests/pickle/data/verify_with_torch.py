"""What real torch (Debian's python3-torch 1.13.1) does with the generated files, recorded once
in manifest.json by make_checkpoints.py --with-torch.

For each emulated file: whether torch.load gives the same tensors as the emulation says
(name, dtype, shape, SHA-256 of the bytes). For each hostile file: whether torch.load runs its
payload (`echo tensorscope-test-payload`), in a child process with a timeout. For each malformed
file: what torch.load says.

    /usr/bin/python3 verify_with_torch.py DATA_DIR
"""

import json
import os
import subprocess
import sys

CHILD = r'''
import sys, warnings, hashlib, json
warnings.simplefilter("ignore")
import torch
sys.path.insert(0, sys.argv[2])
from write_with_torch import tensors_of
try:
    obj = torch.load(sys.argv[1])
    print("TS-RESULT " + json.dumps({"loaded": True, "tensors": tensors_of(obj) if sys.argv[3] == "walk" else None}))
except Exception as e:
    print("TS-RESULT " + json.dumps({"loaded": False, "error": type(e).__name__ + ": " + str(e)[:300]}))
'''

NOT_RUN = {"h_webbrowser.pt"}  # would open a browser


def load(path, here, walk=True):
    try:
        p = subprocess.run(["/usr/bin/python3", "-c", CHILD, path, here, "walk" if walk else "no"],
                           capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return {"loaded": False, "error": "timed out after 300 s", "payload_ran": False}
    result = {"loaded": False, "error": "no result (exit %d)" % p.returncode}
    for line in p.stdout.splitlines():
        if line.startswith("TS-RESULT "):
            result = json.loads(line[len("TS-RESULT "):])
    result["payload_ran"] = "tensorscope-test-payload" in p.stdout
    return result


def main():
    here = sys.argv[1]
    only = set(sys.argv[2:])  # verify only these files (the rest of the record is kept by the caller)
    manifest = json.load(open(os.path.join(here, "manifest.json")))
    out = {"emulated": {}, "hostile": {}, "malformed": {}}
    for name, entry in manifest["emulated"].items():
        if only and name not in only:
            continue
        r = load(os.path.join(here, "emulated", name), here)
        out["emulated"][name] = {"loaded": r["loaded"], "same_tensors": r.get("tensors") == entry["tensors"],
                                 "error": r.get("error")}
    for name in manifest["hostile"]:
        if only and name not in only:
            continue
        if name in NOT_RUN:
            out["hostile"][name] = {"loaded": None, "payload_ran": None, "error": "not run"}
            continue
        r = load(os.path.join(here, "hostile", name), here, walk=False)
        out["hostile"][name] = {"loaded": r["loaded"], "payload_ran": r["payload_ran"], "error": r.get("error")}
    for name in manifest["malformed"]:
        if only and name not in only:
            continue
        r = load(os.path.join(here, "malformed", name), here, walk=False)
        out["malformed"][name] = {"loaded": r["loaded"], "error": r.get("error")}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
