#!/usr/bin/env python3
"""Fails when an object or archive references an undefined symbol outside the allowed
prefixes: proves that a TPOSE_NO_STDLIB build calls nothing from libc (no memcpy, malloc,
free, printf...). Sanitizer and coverage runtimes are allowed: they are the build's, not
the library's; so is tposei_kit_get, which transpose_inplace.h's object takes from
transpose.h's (its own, checked the same way). So is the compiler's support library
(libgcc, compiler-rt: 64-bit division on 32-bit targets), listed in the output."""
import re
import subprocess
import sys

ALLOWED = ("__asan", "__ubsan", "__sanitizer", "__msan", "__tsan", "__gcov", "__llvm_",
           "_GLOBAL_OFFSET_TABLE_", "__stack_chk", "tposei_kit_get")

# The compiler's support library: integer arithmetic the target lacks, and AArch64 Linux
# GCC's out-of-line atomics (unless -mno-outline-atomics). The ARM EABI's
# __aeabi_memcpy/memset/memclr family is libc's, so it is not in here.
RUNTIME = re.compile(r"^__(aeabi_(?!mem)\w+"
                     r"|u?(div|mod|divmod)[sdt]i[34]"
                     r"|(ash|lsh)[lr]?[dt]i3|ashr[dt]i3|mul[dt]i3|neg[dt]i2"
                     r"|(clz|ctz|popcount|parity|ffs|bswap)[sdt]i2|u?cmp[dt]i2"
                     r"|aarch64_(cas|swp|ldadd|ldclr|ldeor|ldset)\d+_(relax|acq|rel|acq_rel))$")


def main():
    nm, path = sys.argv[1], sys.argv[2]
    out = subprocess.run([nm, "-u", path], check=True, capture_output=True, text=True).stdout
    names = [line.split()[-1] for line in out.splitlines() if line.strip() and ":" not in line]
    runtime = [n for n in names if RUNTIME.match(n)]
    bad = [n for n in names if not n.startswith(ALLOWED) and n not in runtime]
    print(f"{path}: {len(names)} undefined symbols, {len(bad)} not allowed")
    if runtime:
        print("  compiler runtime (libgcc):", " ".join(runtime))
    for n in bad:
        print("  references", n)
    print(f"{1 if not bad else 0} passed, {1 if bad else 0} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
