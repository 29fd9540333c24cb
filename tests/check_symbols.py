#!/usr/bin/env python3
"""Fails when an object or archive references an undefined symbol outside the allowed
prefixes: proves that a TPOSE_NO_STDLIB build calls nothing from libc (no memcpy, malloc,
free, printf...). Sanitizer and coverage runtimes are allowed: they are the build's, not
the library's; so is tposei_kit_get, which transpose_inplace.h's object takes from
transpose.h's (its own, checked the same way)."""
import subprocess
import sys

ALLOWED = ("__asan", "__ubsan", "__sanitizer", "__msan", "__tsan", "__gcov", "__llvm_",
           "_GLOBAL_OFFSET_TABLE_", "__stack_chk", "tposei_kit_get")


def main():
    nm, path = sys.argv[1], sys.argv[2]
    out = subprocess.run([nm, "-u", path], check=True, capture_output=True, text=True).stdout
    names = [line.split()[-1] for line in out.splitlines() if line.strip() and ":" not in line]
    bad = [n for n in names if not n.startswith(ALLOWED)]
    print(f"{path}: {len(names)} undefined symbols, {len(bad)} not allowed")
    for n in bad:
        print("  references", n)
    print(f"{1 if not bad else 0} passed, {1 if bad else 0} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
