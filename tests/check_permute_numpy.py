#!/usr/bin/env python3
"""tpose_permute against numpy: for each case, the bytes permute_cli writes must equal
np.ascontiguousarray(np.transpose(x, perm)).tobytes(). Cases: NCHW -> NHWC [2,16,7,9] perm
[0,2,3,1] and back, attention heads [2,12,5,8] perm [0,2,1,3], and random permutations of
rank 3..5, each at uint8, uint16, float16, float32, float64 (and complex128 and a 3-byte
void type: element sizes 16 and 3). One line per case; exit 1 on a mismatch, 77 (skipped)
without numpy.

usage: check_permute_numpy.py PERMUTE_CLI"""
import os
import shlex
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy not importable by %s: skipped" % sys.executable)
    sys.exit(77)

DTYPES = [np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float16), np.dtype(np.float32),
          np.dtype(np.float64), np.dtype(np.complex128), np.dtype("V3")]


def random_tensor(rng, shape, dtype):
    """Random bytes of `shape` x dtype (every bit pattern, NaNs included: compared as bytes)."""
    count = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = rng.integers(0, 256, size=count, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def run_case(cli, workdir, x, perm):
    """Writes x, runs the CLI, returns (ok, message)."""
    rank = x.ndim
    header = b"TPERMUT1" + struct.pack("<%dQ" % (2 + 2 * rank), rank, x.dtype.itemsize,
                                       *(list(x.shape) + list(perm)))
    src_path = os.path.join(workdir, "in.bin")
    dst_path = os.path.join(workdir, "out.bin")
    with open(src_path, "wb") as f:
        f.write(header)
        f.write(np.ascontiguousarray(x).tobytes())
    if os.path.exists(dst_path):
        os.remove(dst_path)
    # a cross build's program runs through the emulator Meson names (its exe_wrapper)
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", ""))
    proc = subprocess.run(wrapper + [cli, src_path, dst_path], capture_output=True, text=True)
    if proc.returncode != 0:
        return False, "permute_cli exited %d: %s" % (proc.returncode, proc.stderr.strip())
    with open(dst_path, "rb") as f:
        got = f.read()
    want = np.ascontiguousarray(np.transpose(x, perm)).tobytes()
    if got == want:
        return True, "ok"
    if len(got) != len(want):
        return False, "%d bytes, want %d" % (len(got), len(want))
    first = next(i for i in range(len(want)) if got[i] != want[i])
    return False, "first difference at byte %d (element %d): got %02x want %02x" % (
        first, first // x.dtype.itemsize, got[first], want[first])


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    cli = sys.argv[1]
    rng = np.random.default_rng(20240611)
    cases = [((2, 16, 7, 9), (0, 2, 3, 1), "NCHW -> NHWC"),
             ((2, 7, 9, 16), (0, 3, 1, 2), "NHWC -> NCHW"),
             ((2, 12, 5, 8), (0, 2, 1, 3), "attention heads")]
    for rank in (3, 3, 4, 4, 5, 5):
        shape = tuple(int(v) for v in rng.choice([1, 2, 3, 5, 7, 8, 9, 16, 17, 33], size=rank))
        perm = tuple(int(v) for v in rng.permutation(rank))
        cases.append((shape, perm, "random rank %d" % rank))
    failures = 0
    with tempfile.TemporaryDirectory() as workdir:
        for shape, perm, name in cases:
            for dtype in DTYPES:
                x = random_tensor(rng, shape, dtype)
                ok, msg = run_case(cli, workdir, x, perm)
                print("%-4s %-16s %-11s shape %s perm %s: %s" % (
                    "ok" if ok else "FAIL", name, str(dtype), list(shape), list(perm), msg))
                failures += not ok
    print("%d cases, %d failed" % (len(cases) * len(DTYPES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
