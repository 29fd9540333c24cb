#!/usr/bin/env python3
"""Compares builds (or kernels) of tpose-bench on a list of shapes by medians of
interleaved runs: each round runs every shape once with every binary, one after the
other, so a slow or fast phase of a shared machine falls on all of them alike. Prints one
row per shape: for each binary the median ratio to memcpy and its range over the rounds,
and for each binary after the first the median of its per-round quotient against the first
("x1.08 (0.97-1.15)"): a run and the first binary's run of the same round lie seconds apart,
so that quotient cancels the slow and fast phases that widen each binary's own range.

usage: bench/interleave.py ROUNDS BIN[:KERNEL][@ARGS] ... -- "ROWS COLS ESIZE" ...
  (BIN may be tpose-bench-inplace too: its row for the shape, the first direction)
  (words after ESIZE, such as a target, are printed with the shape and otherwise ignored)
  BIN     a tpose-bench binary (a build of another commit, or of an experiment)
  KERNEL  the kernel to time (default auto)
  ARGS    extra tpose-bench options, comma-separated (e.g. @-H for 2 MiB pages)
environment: MIB (default 512), the bytes each measurement moves; REPS (default 3), the
passes each run takes its median over.
Run it alone: with two cores a second benchmark beside it skews both.
example: bench/interleave.py 5 old/tpose-bench new/tpose-bench -- "4096 1024 1" "8256 8256 4"
"""
import os
import statistics
import subprocess
import sys


def parse_binary(spec):
    path, _, args = spec.partition("@")
    path, _, kernel = path.partition(":")
    return path, kernel or "auto", [a for a in args.split(",") if a]


def ratio(binary, shape):
    """One run: the ratio to memcpy and the kernel (or in-place path) of the row for the
    shape, found by the table's own header, so tpose-bench and tpose-bench-inplace both
    work; None where the run has no row for it (a peer without that element size)."""
    path, kernel, extra = binary
    rows, cols, esize = shape.split()[:3]
    cmd = [path, "-r", rows, "-c", cols, "-e", esize,
           "-n", os.environ.get("REPS", "3"), "-m", os.environ.get("MIB", "512")] + extra
    if "inplace" not in os.path.basename(path):
        cmd += ["-k", kernel]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
    table = [[c.strip() for c in line.split("|")[1:-1]] for line in out if line.startswith("|")]
    head = table[0]
    at, name = head.index("ratio to memcpy"), head.index("kernel" if "kernel" in head else "path")
    row = next((r for r in table[2:] if r[0] == f"{rows}x{cols}"), None)
    return (float(row[at]), row[name]) if row else (None, "-")


def main(argv):
    if "--" not in argv or len(argv) < 4:
        sys.exit(__doc__)
    sep = argv.index("--")
    rounds = int(argv[0])
    binaries = [parse_binary(b) for b in argv[1:sep]]
    shapes = argv[sep + 1:]
    ratios = {}
    names = {}
    for _ in range(rounds):
        for shape in shapes:
            for i, binary in enumerate(binaries):
                r, names[shape, i] = ratio(binary, shape)
                ratios.setdefault((shape, i), []).append(r)
    print("| shape | " + " | ".join(argv[1:sep]) + " |")
    print("|---|" + "---:|" * len(binaries))
    for shape in shapes:
        cells = []
        for i in range(len(binaries)):
            v = ratios[shape, i]
            if None in v:
                cells.append("-")
                continue
            cell = (f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f}) "
                    f"{names[shape, i]}")
            if i > 0 and None not in ratios[shape, 0]:
                q = [a / b for a, b in zip(v, ratios[shape, 0])]
                cell += f" x{statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})"
            cells.append(cell)
        print(f"| {shape} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
