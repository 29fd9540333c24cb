#!/usr/bin/env python3
"""numpy beside tpose-bench-permute: np.ascontiguousarray(np.transpose(x, perm)) into a
preallocated output (np.copyto of the transposed view, numpy's fastest form) against
np.copyto of the same bytes, cold (a pool of distinct tensors of at least 256 MiB), median of
REPS passes, for the cases of tpose-bench-permute (bench/ttc-bench.txt, then NCHW <-> NHWC
[32, 64, 56, 56] and the attention heads [8, 512, 16, 64]).

usage: permute_numpy.py [-e ESIZE]... [-c CASE] [-n REPS] [-f FILE]"""
import argparse
import os
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:
    print("permute_numpy.py: numpy is not installed (Debian: python3-numpy)")
    sys.exit(77)

DTYPES = {1: np.uint8, 2: np.uint16, 4: np.float32, 8: np.float64}


def cases(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rank, dims, perm = (part.split() for part in line.split("|"))
            out.append(("ttc", [int(d) for d in dims], [int(p) for p in perm]))
    out.append(("nchw>nhwc", [32, 64, 56, 56], [0, 2, 3, 1]))
    out.append(("nhwc>nchw", [32, 56, 56, 64], [0, 3, 1, 2]))
    out.append(("heads", [8, 512, 16, 64], [0, 2, 1, 3]))
    return out


def measure(dims, perm, dtype, reps):
    one = int(np.prod(dims)) * np.dtype(dtype).itemsize
    count = max(1, -(-256 * 2**20 // (2 * one)))
    srcs = [np.full(dims, i + 1, dtype=dtype) for i in range(count)]
    dsts = [np.empty([dims[p] for p in perm], dtype=dtype) for _ in range(count)]
    flat = [np.empty(dims, dtype=dtype) for _ in range(count)]
    cp, tr = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        for s, d in zip(srcs, flat):
            np.copyto(d, s)
        cp.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for s, d in zip(srcs, dsts):
            np.copyto(d, np.transpose(s, perm))
        tr.append(time.perf_counter() - t0)
    return statistics.median(cp) / statistics.median(tr)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("-e", type=int, action="append")
    ap.add_argument("-c", type=int, default=0)
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("-f", default=os.path.join(here, "ttc-bench.txt"))
    a = ap.parse_args()
    print("| # | case | dims | perm | esize | numpy ratio |\n|---:|---|---|---|---:|---:|")
    for esize in a.e or [4, 2, 1]:
        for i, (tag, dims, perm) in enumerate(cases(a.f), 1):
            if a.c and a.c != i:
                continue
            r = measure(dims, perm, DTYPES[esize], a.n)
            print(f"| {i} | {tag} | {' '.join(map(str, dims))} | {' '.join(map(str, perm))} "
                  f"| {esize} | {r:.3f} |", flush=True)


if __name__ == "__main__":
    main()
