#!/usr/bin/env python3
"""The README's "Copy the files you need", done as a user does it: for each row of its table
(the CUDA row aside), exactly the files that row names are copied into an empty directory,
small programs are written beside them, built with CC -std=c99 -Wall -Wextra -Wpedantic
-Werror and run, and each checks the bytes it gets.

usage: check_readme_copy.py ROOT CC [CC ARGS...]

Programs per row:
  implementation  main.c defines TPOSE_IMPLEMENTATION; other.c includes the header plainly
  static          one file with TPOSE_STATIC
  two-line .c     ROOT's transpose.c (and transpose_inplace.c or transpose_tensor.c) copied
                  too, no macro defined by the program (the README's "or compile the
                  two-line transpose.c")
  two files       in-place and tensor rows: TPOSE_IMPLEMENTATION with transpose.h in one
                  file, TPOSE_INPLACE_IMPLEMENTATION (TPOSE_TENSOR_IMPLEMENTATION) with the
                  row's header in another
and, once, the README's own C snippet inside main(). Each program also checks the README's
claim about SIMD: on x86 the SSE2 kernel is there exactly when transpose_simd.h was copied,
on little-endian AArch64 the NEON kernel exactly when transpose_neon.h was.
The README and this test must agree: a row or snippet it cannot find fails the test."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import embed_cli  # beside this script

# -O0: the recipe is what is checked, not the code generation; a third of -O1's time.
FLAGS = ["-std=c99", "-O0", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]

# Out of place: a 37 x 70 matrix of 4-byte elements (crosses every tile edge) and a 3 x 5
# one of bytes, each checked element by element against its source.
CORE_CHECK = r"""
#include <stdio.h>
#include <stdint.h>

static int check_core(void)
{
    static uint32_t a[37 * 70], t[70 * 37];
    unsigned char b[3 * 5], u[5 * 3];
    size_t r, c;
    int bad = 0;
    for (r = 0; r < 37 * 70; r++) a[r] = (uint32_t)(r * 2654435761u);
    for (r = 0; r < 15; r++) b[r] = (unsigned char)(r + 1);
    if (tpose_matrix(t, 37, a, 70, 37, 70, sizeof a[0]) != TPOSE_OK) return 1;
    if (tpose_matrix(u, 3, b, 5, 3, 5, 1) != TPOSE_OK) return 1;
    for (r = 0; r < 37; r++)
        for (c = 0; c < 70; c++) bad |= t[c * 37 + r] != a[r * 70 + c];
    for (r = 0; r < 3; r++)
        for (c = 0; c < 5; c++) bad |= u[c * 3 + r] != b[r * 5 + c];
    if (bad) printf("wrong bytes\n");
    if (tpose_kernel_supported(TPOSE_KERNEL_SSE2, 4) != EXPECT_SSE2) {
        printf("sse2 kernel: %d, expected %d\n", tpose_kernel_supported(TPOSE_KERNEL_SSE2, 4),
               EXPECT_SSE2);
        bad = 1;
    }
    if (tpose_kernel_supported(TPOSE_KERNEL_NEON, 4) != EXPECT_NEON) {
        printf("neon kernel: %d, expected %d\n", tpose_kernel_supported(TPOSE_KERNEL_NEON, 4),
               EXPECT_NEON);
        bad = 1;
    }
    printf("%s: %s\n", tpose_kernel_name(tpose_kernel_auto(37, 70, 4)), bad ? "FAIL" : "ok");
    return bad;
}
"""

# In place: 6 x 10 8-byte elements (rectangular, library workspace) and a 9 x 9 square.
INPLACE_CHECK = r"""
static int check_inplace(void)
{
    uint64_t m[6 * 10], s[9 * 9];
    size_t r, c;
    int bad = 0;
    for (r = 0; r < 60; r++) m[r] = r * 0x0101010101010101u;
    for (r = 0; r < 81; r++) s[r] = r;
    if (tpose_inplace(m, 6, 10, sizeof m[0], NULL, 0) != TPOSE_OK) return 1;
    if (tpose_inplace_square(s, 9, 9, sizeof s[0]) != TPOSE_OK) return 1;
    for (r = 0; r < 6; r++)
        for (c = 0; c < 10; c++) bad |= m[c * 6 + r] != (r * 10 + c) * 0x0101010101010101u;
    for (r = 0; r < 9; r++)
        for (c = 0; c < 9; c++) bad |= s[c * 9 + r] != r * 9 + c;
    printf("in place: %s\n", bad ? "FAIL" : "ok");
    return bad;
}
"""


# Tensors: a 2 x 3 x 4 tensor of bytes permuted to 4 x 2 x 3, checked element by element.
TENSOR_CHECK = r"""
static int check_tensor(void)
{
    const size_t dims[3] = {2, 3, 4}, perm[3] = {2, 0, 1};
    unsigned char x[24], y[24];
    size_t i, j, k;
    int bad = 0;
    for (i = 0; i < 24; i++) x[i] = (unsigned char)(i + 1);
    if (tpose_permute(y, NULL, x, NULL, 3, dims, perm, 1) != TPOSE_OK) return 1;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            for (k = 0; k < 4; k++) bad |= y[(k * 2 + i) * 3 + j] != x[(i * 3 + j) * 4 + k];
    printf("tensor: %s\n", bad ? "FAIL" : "ok");
    return bad;
}
"""


def main_fn(kind):
    calls = {"inplace": " | check_inplace()", "tensor": " | check_tensor()"}
    body = "check_core()" + calls.get(kind, "")
    return f"\nint main(void) {{ return (other() | {body}) != 0; }}\n"


# The header a row adds beyond transpose.h, the macro of its own implementation, its two-line
# file and its check.
EXTRA = {"inplace": ("transpose_inplace.h", "TPOSE_INPLACE_IMPLEMENTATION",
                     "transpose_inplace.c", INPLACE_CHECK),
         "tensor": ("transpose_tensor.h", "TPOSE_TENSOR_IMPLEMENTATION", "transpose_tensor.c",
                    TENSOR_CHECK)}


def kind_of(files):
    """"tensor", "inplace" or "core": what a row's files give beyond the matrix API."""
    for kind, (header, _, _, _) in EXTRA.items():
        if header in files:
            return kind
    return "core"


def programs(files, kind):
    """{name: {file: text}} for one row of the table."""
    extra = kind != "core"
    header = EXTRA[kind][0] if extra else "transpose.h"
    checks = CORE_CHECK + (EXTRA[kind][3] if extra else "")
    other_def = '\nint other(void) { return tpose_status_str(TPOSE_OK) == 0; }\n'
    other_decl = "int other(void);\n"
    progs = {
        "implementation": {
            "main.c": f'#define TPOSE_IMPLEMENTATION\n#include "{header}"\n{other_decl}'
                      + checks + main_fn(kind),
            "other.c": f'#include "{header}"\n{other_decl}' + other_def},
        "static": {
            "main.c": f'#define TPOSE_STATIC\n#include "{header}"\n{other_decl}' + checks
                      + other_def + main_fn(kind)},
        "two-line .c": {
            "main.c": f'#include "{header}"\n{other_decl}' + checks + other_def
                      + main_fn(kind)},
    }
    if extra:
        progs["two files"] = {
            "core.c": '#define TPOSE_IMPLEMENTATION\n#include "transpose.h"\n',
            "extra.c": f'#define {EXTRA[kind][1]}\n#include "{header}"\n',
            "main.c": f'#include "{header}"\n{other_decl}' + checks + other_def
                      + main_fn(kind)}
    return progs


def copy_table(readme):
    """[(row text, [files])] of the README's "Copy the files you need" table."""
    m = re.search(r"^#+ Copy the files you need\n(.*?)(?=^#)", readme, re.M | re.S)
    if not m:
        return []
    rows, before = [], []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2 or set(cells[0]) <= set("-: ") \
                or cells[0] == "files":
            continue
        files = re.findall(r"`([^`]+)`", cells[0])
        if cells[0].startswith("the above"):
            files = before + files
        rows.append((cells[0], files))
        before = files
    return rows


def snippet(readme):
    """The README's first C block, as a program: #-lines on top, the rest inside main."""
    m = re.search(r"```c\n(.*?)```", readme, re.S)
    if not m:
        return None
    lines = m.group(1).splitlines()
    top = [ln for ln in lines if ln.startswith("#")]
    body = [ln for ln in lines if not ln.startswith("#")]
    return ("#include <stdio.h>\n" + "\n".join(top) + "\nint main(void)\n{\n"
            + "\n".join("    " + ln for ln in body)
            + "\n    for (int k = 0; k < 15; k++)"
            + "\n        if (t[k] != a[k % 3 * 5 + k / 3]) return 1;"
            + "\n    return st != TPOSE_OK;\n}\n")


def build_run(cc, work, sources, defines):
    exe = os.path.join(work, "prog")
    res = subprocess.run(cc + FLAGS + defines + sorted(sources) + ["-o", exe],
                         cwd=work, capture_output=True, text=True)
    if res.returncode:
        return False, res.stdout + res.stderr
    # a cross compiler's program runs through the emulator Meson names (its exe_wrapper)
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", ""))
    run = subprocess.run(wrapper + [exe], cwd=work, capture_output=True, text=True)
    return run.returncode == 0, run.stdout + run.stderr


def main():
    root, _, cc = embed_cli.parse(__doc__)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    rows = [(text, files) for text, files in copy_table(readme)
            if not any(x.endswith(".cuh") for x in files)]
    passed = failed = 0
    if not rows or not any("transpose_inplace.h" in files for _, files in rows):
        print("README: no \"Copy the files you need\" table with the in-place row")
        failed += 1
    macros = subprocess.run(cc + ["-dM", "-E", "-x", "c", os.devnull], capture_output=True,
                            text=True).stdout
    x86 = "__x86_64__" in macros or "__i386__" in macros
    aarch64 = "__aarch64__" in macros and "__AARCH64EB__" not in macros
    for text, files in rows:
        kind = kind_of(files)
        expect = ["-DEXPECT_SSE2=%d" % (x86 and "transpose_simd.h" in files),
                  "-DEXPECT_NEON=%d" % (aarch64 and "transpose_neon.h" in files)]
        print(f"== {' + '.join(files)}")
        for name, sources in programs(files, kind).items():
            with tempfile.TemporaryDirectory(prefix="tpose-copy-") as work:
                copied = list(files)
                if name == "two-line .c":
                    copied += ["transpose.c"] + ([EXTRA[kind][2]] if kind != "core" else [])
                for x in copied:
                    shutil.copy(os.path.join(root, x), work)
                for x, body in sources.items():
                    with open(os.path.join(work, x), "w", encoding="ascii") as f:
                        f.write(body)
                c_files = [x for x in os.listdir(work) if x.endswith(".c")]
                ok, out = build_run(cc, work, c_files, expect)
            print(f"  {name} ({' '.join(sorted(c_files))}): {'ok' if ok else 'FAILED'}")
            if not ok:
                print("    " + out.strip().replace("\n", "\n    "))
            passed += ok
            failed += not ok
    prog = snippet(readme)
    with tempfile.TemporaryDirectory(prefix="tpose-copy-") as work:
        if prog is None:
            ok, out = False, "no ```c block in the README"
        else:
            shutil.copy(os.path.join(root, "transpose.h"), work)
            with open(os.path.join(work, "snippet.c"), "w", encoding="ascii") as f:
                f.write(prog)
            ok, out = build_run(cc, work, ["snippet.c"], [])
    print(f"== the README's snippet in main(): {'ok' if ok else 'FAILED'}")
    if not ok:
        print("    " + out.strip().replace("\n", "\n    "))
    passed += ok
    failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
