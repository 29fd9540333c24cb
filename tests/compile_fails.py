#!/usr/bin/env python3
"""Passes when compiling a source fails with the expected diagnostic: a misuse the headers
must reject. Usage: compile_fails.py EXPECTED_TEXT COMPILER ARGS..."""
import subprocess
import sys

expected, cmd = sys.argv[1], sys.argv[2:]
res = subprocess.run(cmd, capture_output=True, text=True)
ok = res.returncode != 0 and expected in res.stderr
print(res.stderr.strip() or "(compiled without a diagnostic)")
print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
sys.exit(0 if ok else 1)
