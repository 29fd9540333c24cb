"""The command line the embed checks share: ROOT, LABEL... (as many as the check takes), then
a compiler command. Exits 2 with the check's usage when arguments are missing, and 77 (meson:
skipped) when that compiler is not installed."""
import os
import shutil
import sys


def parse(usage, labels=0):
    """(root, [label, ...], compiler command) from sys.argv."""
    if len(sys.argv) < 3 + labels:
        print(usage)
        sys.exit(2)
    root, names, cc = os.path.abspath(sys.argv[1]), sys.argv[2:2 + labels], sys.argv[2 + labels:]
    if not shutil.which(cc[0]):
        print(f"{names[0]}: no {cc[0]} here; skipped" if names else f"no {cc[0]} here; skipped")
        sys.exit(77)
    return root, names, cc
