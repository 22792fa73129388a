#!/usr/bin/python3
"""redump_json.py IN OUT: re-serialises a JSON file the way huggingface_hub writes an index."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    data = json.load(f)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
