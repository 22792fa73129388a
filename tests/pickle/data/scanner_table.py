#!/usr/bin/python3
"""Runs three public pickle scanners, as their command lines run them, on the hostile files of
this folder and prints the README's table (markdown) with each scanner's exit status.

    scanner_table.py PICKLESCAN_CHECKOUT MODELSCAN_CHECKOUT FICKLING_CHECKOUT [--json]

The checkouts are git trees of mmaitre314/picklescan, protectai/modelscan and
trailofbits/fickling; nothing of them is part of this project. Their scanners only disassemble
pickles (pickletools, fickling's own parser): running them loads nothing. modelscan imports
tomlkit for its settings file, which is not needed here: a stand-in module is given to it.
Run with Debian's /usr/bin/python3 (modelscan wants numpy); fickling needs a typing_extensions newer
than Debian 12's: FICKLING_PYTHON names an interpreter that has one.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

PICKLESCAN = r'''
import sys
sys.path.insert(0, sys.argv[1] + "/src")
from picklescan.scanner import scan_file_path
r = scan_file_path(sys.argv[2])
code = 2 if r.scan_err else (0 if r.issues_count == 0 else 1)
print("TS-RESULT", code, r.issues_count, r.suspicious_count, ";".join(sorted({g.module + "." + g.name for g in r.globals if g.safety.value == "dangerous"})))
'''

MODELSCAN = r'''
import sys, types
sys.modules["tomlkit"] = types.ModuleType("tomlkit")  # settings files only
sys.path.insert(0, sys.argv[1])
from modelscan.modelscan import ModelScan
from modelscan.settings import DEFAULT_SETTINGS
m = ModelScan(settings=DEFAULT_SETTINGS)
try:
    m.scan(sys.argv[2])
except Exception as e:  # an exception ends the CLI with exit status 2 too
    print("TS-RESULT", 2, 0, 0, type(e).__name__)
    raise SystemExit
code = 3 if not m.scanned else 2 if m.errors else 1 if m.issues.all_issues else 0
why = ";".join(sorted({type(e).__name__ for e in m.errors} | {s.category.name for s in m._skipped}))
print("TS-RESULT", code, len(m.issues.all_issues), 0, why)
'''

FICKLING = r'''
import sys, io, contextlib
sys.path.insert(0, sys.argv[1])
from fickling.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    code = main(["fickling", "--check-safety", sys.argv[2]])
print("TS-RESULT", code, 0, 0, "")
'''


def run(script, checkout, path, python=None):
    p = subprocess.run([python or sys.executable, "-c", script, checkout, path], capture_output=True, text=True,
                       timeout=300)
    for line in p.stdout.splitlines():
        if line.startswith("TS-RESULT"):
            parts = line.split(" ", 5)
            return {"exit": int(parts[1]), "issues": int(parts[2]), "suspicious": int(parts[3]),
                    "detail": parts[4] if len(parts) > 4 else ""}
    return {"exit": 2, "issues": 0, "suspicious": 0, "detail": "crashed: " + p.stderr.strip().splitlines()[-1][:120]
            if p.stderr.strip() else "no result"}


def commit(checkout):
    return subprocess.run(["git", "-C", checkout, "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


def main():
    checkouts = sys.argv[1:4]
    manifest = json.load(open(os.path.join(HERE, "manifest.json")))
    verified = manifest["verified_with_torch"]["hostile"]
    rows = {}
    # Benign controls first: a scanner that flags them cannot tell a checkpoint from an attack.
    files = [("torch", n) for n in ("zip_dtypes.pt", "legacy_dtypes.pt", "torch_state_dict.bin")]
    files += [("emulated", "e_tar_dtypes.pt")] + [("hostile", n) for n in sorted(manifest["hostile"])]
    for folder, name in files:
        path = os.path.join(HERE, folder, name)
        rows[name] = {
            "picklescan": run(PICKLESCAN, checkouts[0], path),
            "modelscan": run(MODELSCAN, checkouts[1], path),
            "fickling": run(FICKLING, checkouts[2], path, os.environ.get("FICKLING_PYTHON")),
            "torch_runs_payload": verified.get(name, {}).get("payload_ran"),
            "note": manifest["hostile"].get(name, {}).get("note", "benign control"),
        }
    if "--json" in sys.argv:
        json.dump({"commits": [commit(c) for c in checkouts], "rows": rows}, sys.stdout, indent=1)
        return
    print("picklescan %s, modelscan %s, fickling %s" % tuple(commit(c) for c in checkouts))
    for name, r in rows.items():
        print(name, r["picklescan"], r["modelscan"], r["fickling"], r["torch_runs_payload"])


if __name__ == "__main__":
    main()
