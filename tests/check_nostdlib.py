#!/usr/bin/env python3
"""TPOSE_NO_STDLIB, compiled the ways a user compiles it: fails when an implementation object
references a libc symbol at -O0, -O2 or -Os.

usage: check_nostdlib.py ROOT LABEL CC [CC ARGS...]

Compiles, with CC -std=c99 (ARGS) -c and each of -O0 -O2 -Os, four objects under
#define TPOSE_NO_STDLIB:
  impl          TPOSE_IMPLEMENTATION + transpose.h (SIMD kernels on where the target has them)
  impl+inplace  the same + transpose_inplace.h
  inplace-only  TPOSE_INPLACE_IMPLEMENTATION + transpose_inplace.h (may reference
                tposei_kit_get: transpose.h's object, built elsewhere, defines it)
  tensor-only   TPOSE_TENSOR_IMPLEMENTATION + transpose_tensor.h (the same, and
                tpose_kernel_name for its plans' descriptions)
and lists each object's undefined symbols (`nm -u`). Allowed: the build's own runtimes (those
check_symbols.py allows) and the compiler's support library (libgcc / compiler-rt: 64-bit
division on 32-bit targets, __aeabi_uldivmod and the like), which the output lists so the
docs can say what to link (-lgcc). Anything else, memcpy and memset above all, fails, with
the function and line that needs it where objdump can tell. Exit 77 (skipped) when CC is not
installed."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_symbols import ALLOWED, RUNTIME  # noqa: E402  (the same runtimes allowed)
import embed_cli  # noqa: E402

SOURCES = {
    "impl": "#define TPOSE_NO_STDLIB\n#define TPOSE_IMPLEMENTATION\n"
            '#include "transpose.h"\n',
    "impl+inplace": "#define TPOSE_NO_STDLIB\n#define TPOSE_IMPLEMENTATION\n"
                    '#include "transpose.h"\n#include "transpose_inplace.h"\n',
    "inplace-only": "#define TPOSE_NO_STDLIB\n#define TPOSE_INPLACE_IMPLEMENTATION\n"
                    '#include "transpose_inplace.h"\n',
    "tensor-only": "#define TPOSE_NO_STDLIB\n#define TPOSE_TENSOR_IMPLEMENTATION\n"
                   '#include "transpose_tensor.h"\n',
}
OPT_LEVELS = ("-O0", "-O2", "-Os")


def tool(cc, name):
    """The binutils tool `name` for the target of `cc` (arm-none-eabi-gcc: arm-none-eabi-nm),
    else the host's."""
    base = os.path.basename(cc)
    m = re.match(r"^(.*-)(gcc|cc|clang)(-[0-9.]+)?$", base)
    if m and shutil.which(m.group(1) + name):
        return shutil.which(m.group(1) + name)
    return shutil.which(name)


def undefined(nm, obj):
    out = subprocess.run([nm, "-u", obj], check=True, capture_output=True, text=True).stdout
    return sorted({line.split()[-1] for line in out.splitlines()
                   if line.strip() and ":" not in line})


def where(cc, flags, src, objdump, symbols, tmp):
    """'function (file:line)' for each call of one of `symbols`, from a -g build."""
    obj = os.path.join(tmp, "where.o")
    if not objdump or subprocess.run(cc + flags + ["-g", src, "-o", obj],
                                     capture_output=True).returncode:
        return []
    out = subprocess.run([objdump, "-dlr", "--no-show-raw-insn", obj],
                         capture_output=True, text=True).stdout
    fn = loc = "?"
    hits = set()
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            fn = m.group(1)
        elif re.match(r"^/.*:[0-9]+", line):
            loc = os.path.basename(line.split()[0])
        else:
            m = re.search(r"\bR_\w+\s+([A-Za-z_.$][\w.$]*)", line)
            if m and m.group(1) in symbols:
                hits.add(f"{m.group(1)} in {fn} ({loc})")
    return sorted(hits)


def main():
    root, (label,), cc = embed_cli.parse(__doc__, labels=1)
    nm, objdump = tool(cc[0], "nm"), tool(cc[0], "objdump")
    if not nm:
        print(f"{label}: no nm for {cc[0]}; skipped")
        return 77
    passed = failed = 0
    runtime_all = set()
    with tempfile.TemporaryDirectory(prefix="tpose-nostdlib-") as tmp:
        for name, text in SOURCES.items():
            src = os.path.join(tmp, name.replace("+", "_") + ".c")
            with open(src, "w", encoding="ascii") as f:
                f.write(text)
            for opt in OPT_LEVELS:
                flags = ["-std=c99", opt, "-I" + root, "-c"]
                obj = os.path.join(tmp, "out.o")
                res = subprocess.run(cc + flags + [src, "-o", obj], capture_output=True,
                                     text=True)
                if res.returncode:
                    print(f"{label} {name} {opt}: does not compile\n{res.stderr.strip()}")
                    failed += 1
                    continue
                names = undefined(nm, obj)
                allowed = ALLOWED + ("tpose_kernel_name",) if name == "tensor-only" else \
                    ALLOWED if name == "inplace-only" else \
                    tuple(a for a in ALLOWED if a != "tposei_kit_get")
                runtime = [n for n in names if RUNTIME.match(n)]
                bad = [n for n in names if not n.startswith(allowed) and n not in runtime]
                runtime_all.update(runtime)
                note = f"; compiler runtime: {' '.join(runtime)}" if runtime else ""
                print(f"{label} {name} {opt}: {len(names)} undefined{note}"
                      + (f"; NOT ALLOWED: {' '.join(bad)}" if bad else ""))
                hits = where(cc, flags, src, objdump, set(bad), tmp) if bad else []
                for hit in hits[:20]:
                    print("    " + hit)
                if len(hits) > 20:
                    print(f"    ... and {len(hits) - 20} more")
                failed += bool(bad)
                passed += not bad
    print(f"{label}: compiler runtime needed: "
          + (" ".join(sorted(runtime_all)) + " (link with -lgcc or compiler-rt's builtins)"
             if runtime_all else "none"))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
