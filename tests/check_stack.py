#!/usr/bin/env python3
"""Stack frames of the in-place routines: fails when any function of transpose_inplace.h's
implementation has a frame of TPOSE_INPLACE_STACK_BYTES + SLACK bytes or more, or one of
unbounded size (a VLA or alloca).

usage: check_stack.py ROOT CC [CC ARGS...]

Compiles #define TPOSE_INPLACE_IMPLEMENTATION + transpose_inplace.h with -fstack-usage at
-O0 and -O2, with the default budget (16384) and with -DTPOSE_INPLACE_STACK_BYTES=1024, and
reads the compiler's .su file. SLACK covers what a frame holds beside the one budgeted
buffer (spills, saved registers, small fixed arrays) and the frames that do not scale with
the budget. Measured with gcc 12 and clang 14: by default the largest frame is
tposei_ip_square, the budget + 240..464 bytes; at 1024 the fixed-size frames lead, up to
1024 + 2640 (gcc -O0 for 32-bit ARM, tposei_ckg_shuffles_e8; 1024 + 1600 on x86-64). Exit 77
(skipped) when CC lacks -fstack-usage.
For comparison it prints the largest frame of transpose.h's implementation too (not checked:
its streaming walks hold a 32 KiB L1 block buffer by design)."""
import os
import subprocess
import sys
import tempfile

import embed_cli  # beside this script

SLACK = 3072
BUDGETS = (16384, 1024)  # the default (no macro defined), the least allowed
OPT_LEVELS = ("-O0", "-O2")


def frames(cc, src, flags, tmp):
    """[(bytes, qualifiers, function)] from the .su file of one compile, or None."""
    obj = os.path.join(tmp, "out.o")
    su = os.path.join(tmp, "out.su")
    if os.path.exists(su):
        os.remove(su)
    res = subprocess.run(cc + ["-std=c99", "-fstack-usage", "-c", src, "-o", obj] + flags,
                         capture_output=True, text=True)
    if res.returncode or not os.path.exists(su):
        print(res.stderr.strip())
        return None
    out = []
    with open(su, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                out.append((int(parts[1]), parts[2], parts[0].rsplit(":", 1)[-1]))
    return sorted(out, reverse=True)


def main():
    root, _, cc = embed_cli.parse(__doc__)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="tpose-stack-") as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w", encoding="ascii") as f:
            f.write("int probe(void) { return 0; }\n")
        if frames(cc, probe, [], tmp) is None:
            print(f"{cc[0]} has no -fstack-usage; skipped")
            return 77
        src = os.path.join(tmp, "inplace.c")
        with open(src, "w", encoding="ascii") as f:
            f.write('#define TPOSE_INPLACE_IMPLEMENTATION\n#include "transpose_inplace.h"\n')
        for budget in BUDGETS:
            for opt in OPT_LEVELS:
                flags = [opt, "-I" + root] + (
                    [] if budget == 16384 else ["-DTPOSE_INPLACE_STACK_BYTES=%d" % budget])
                fr = frames(cc, src, flags, tmp)
                label = f"STACK_BYTES={budget} {opt}"
                if fr is None:
                    print(f"{label}: does not compile")
                    failed += 1
                    continue
                limit = budget + SLACK
                unbounded = [name for _, q, name in fr if "dynamic" in q and "bounded" not in q]
                top = ", ".join(f"{name} {size}" for size, _, name in fr[:3])
                ok = fr[0][0] < limit and not unbounded
                print(f"{label}: largest frames {top} (limit {limit})"
                      + (f"; unbounded: {' '.join(unbounded)}" if unbounded else "")
                      + ("" if ok else "  FAILED"))
                passed += ok
                failed += not ok
        core = os.path.join(tmp, "core.c")
        with open(core, "w", encoding="ascii") as f:
            f.write('#define TPOSE_IMPLEMENTATION\n#include "transpose.h"\n')
        fr = frames(cc, core, ["-O2", "-I" + root], tmp)
        if fr:
            print("for comparison, transpose.h -O2: " +
                  ", ".join(f"{name} {size}" for size, _, name in fr[:3]))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
