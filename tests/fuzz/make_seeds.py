#!/usr/bin/env python3
"""make_seeds.py - writes the seed corpus tests/fuzz/corpus/<harness>/ (deterministic).

Each seed spells one interesting call in the byte format the harness reads (fuzz_common.h's
reader: one byte picks a kind of value, the next ones the value; missing bytes read as 0).
The encoders below mirror those readers; rerun after changing one:
    python3 tests/fuzz/make_seeds.py
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ODD_ESIZES = [3, 5, 6, 7, 12, 24, 33, 48, 63, 64, 100, 128, 257, 1000]
HUGE = {"SIZE_MAX": 0, "SIZE_MAX/2": 2, "SIZE_MAX/3": 4, "2^32+1": 7, "2^62": 9}
KERNEL = {"auto": 0, "naive": 1, "blocked": 2, "prefetch": 3, "swar": 4, "sse2": 5,
          "avx2": 6, "avx2_stream": 7, "avx512": 8, "avx512_stream": 9, "neon": 10,
          "count": 11}


def le(value, n):
    return list(value.to_bytes(n, "little"))


def below(value, n):
    """fz_below(n): 1, 2 or 4 bytes by the size of n."""
    return le(value, 1 if n <= 256 else 2 if n <= 65536 else 4)


def extent(v, small, big):
    """fz_extent: v <= small in one byte, up to big after a 200, or a named huge value."""
    if isinstance(v, str):
        return [245, HUGE[v]]
    if v <= small:
        return [v]
    return [200] + below(v, big + 1)


def esize(e):
    if isinstance(e, str):
        return [240, HUGE[e]]
    if e == 0:
        return [230]
    if 1 <= e <= 32:
        return [e - 1]
    return [200, ODD_ESIZES.index(e)]


def ld(pad):
    """fz_ld: width + pad (pad >= 0), 'short' (width - 1), 'zero' or a huge name."""
    if pad == "short":
        return [200, 0]
    if pad == "zero":
        return [225]
    if isinstance(pad, str):
        return [235, HUGE[pad]]
    if pad == 0:
        return [0]
    if pad <= 16:
        return [1, pad]
    return [160] + le(pad, 2)


def matrix(op, rows, cols, src_pad, dst_pad, es, kernel="auto", limit="auto",
           layout=0, src_mis=0, dst_mis=0, offsets=None):
    out = [op]
    if op in (0, 3):
        out.append(KERNEL[kernel] if kernel in KERNEL else kernel)
    if op == 2:
        out.append(KERNEL[limit])
    out += extent(rows, 48, 300) + extent(cols, 48, 300) + ld(src_pad) + ld(dst_pad)
    out += esize(es) + [layout, src_mis, dst_mis, 0x34, 0x12]
    if offsets:  # one buffer: the two offsets, each below the other span + 64
        src_span = ((rows - 1) * (cols + src_pad) + cols) * es
        dst_span = ((cols - 1) * (rows + dst_pad) + rows) * es
        out += below(offsets[0], dst_span + 64) + below(offsets[1], src_span + 64)
    return out


def inplace(op, rows, cols, es, a_mis=0, w_mis=0, flags=0, extra=0):
    out = [op] + extent(rows, 40, 300) + extent(cols, 40, 300) + esize(es)
    out += [a_mis, w_mis, flags]
    if op in (2, 3):  # short: how far below; long: how much over
        out += le(extra, 2)
    return out + [0x21, 0x43]


def square(n, pad, es, mis=0, flags=0):
    return [5] + extent(n, 48, 300) + ld(pad) + esize(es) + [mis, flags, 0x11, 0x22]


def plan_cycles(rows, cols):
    """Cycles of length >= 2 of the rows x cols in-place transposition."""
    n, seen, count = rows * cols, set(), 0
    for start in range(n):
        if start in seen:
            continue
        length, i = 0, start
        while i not in seen:
            seen.add(i)
            length += 1
            i = (i % cols) * rows + i // cols
        count += length >= 2
    return count


def plan(rows, cols, mode=0, mis=0, applies=(), junk=(0, 1)):
    out = extent(rows, 24, 400) + extent(cols, 24, 400) + [mode, mis]
    if mode % 5 == 1:
        out += [17]
    if mode % 5 == 2:
        pb = 32 + 16 * plan_cycles(rows, cols)
        out += below(0, pb)  # one byte short
    out += [len(applies) - 1 if applies else 0]
    for es, a_mis, flags in applies:
        out += esize(es) + [a_mis, flags]
    kind, es = junk
    return out + [kind] + esize(es) + ([3, 0x80] if kind == 3 else [])


def dim(d):
    if isinstance(d, str):
        return [245, HUGE[d]]
    if d == 0:
        return [215]
    if 1 <= d <= 4:
        return [d - 1]
    return [next(e for e in range(180, 215) if e % 41 == d)]


def outer(pad):
    if pad == "short":
        return [240]
    if isinstance(pad, str):
        return [248, HUGE[pad]]
    return [pad] if pad < 4 else [200, pad]


def permute(op, dims, perm, es, src_pads=None, dst_pads=None, layout=0, nulls=0,
            bad_perm=None, plan_mode=0):
    rank = len(dims)
    out = [op, rank] + sum((dim(d) for d in dims), [])
    # Fisher-Yates picks: reproduce `perm` from the identity, last position first
    cur = list(range(rank))
    for k in range(rank - 1, 0, -1):
        j = cur.index(perm[k])
        out.append(j)
        cur[k], cur[j] = cur[j], cur[k]
    out += bad_perm if bad_perm else [0]
    out += [0 if src_pads is None else 200, 0 if dst_pads is None else 200]
    for k in range(rank):
        out += outer(src_pads[k] if src_pads else 0) + outer(dst_pads[k] if dst_pads else 0)
    out += esize(es) + [layout, nulls]
    if layout < 180:
        out += [1, 2]  # misalignments
    if op > 0:
        out += [plan_mode, 5, 9, 40]  # plan mode and offset, its copy's offset, describe's size
    return out


def seeds():
    m = {
        "dense_8x8_u8": matrix(1, 8, 8, 0, 0, 1),
        "naive_17x33_u32_gaps": matrix(0, 17, 33, 5, 3, 4, kernel="naive"),
        "avx2_64x64_u16_misaligned": matrix(0, 64, 64, 0, 0, 2, kernel="avx2",
                                            src_mis=3, dst_mis=5),
        "avx512_40x24_u64": matrix(0, 40, 24, 1, 7, 8, kernel="avx512"),
        "limit_sse2_100x7_u128": matrix(2, 100, 7, 0, 2, 16, limit="sse2"),
        "swar_13x9_esize3": matrix(3, 13, 9, 0, 0, 3, kernel="swar"),
        "stream_129x65_u8": matrix(0, 129, 65, 2, 0, 1, kernel="avx2_stream"),
        "blocked_esize12": matrix(0, 11, 6, 1, 1, 12, kernel="blocked"),
        "ld_short": matrix(1, 5, 6, "short", 0, 4),
        "rows_huge": matrix(1, "SIZE_MAX/3", 3, 0, 0, 1),
        "esize_huge": matrix(1, 3, 3, 0, 0, "SIZE_MAX/2"),
        "esize_0": matrix(1, 3, 3, 0, 0, 0),
        "src_null": matrix(1, 4, 4, 0, 0, 1, layout=240),
        "empty_null": matrix(1, 0, 4, 0, 0, 1, layout=242),
        "kernel_out_of_range": matrix(0, 4, 4, 0, 0, 1, kernel="count"),
        "one_buffer_overlap": matrix(1, 6, 7, 0, 0, 2, layout=200, offsets=(10, 0)),
        "one_buffer_apart": matrix(1, 6, 7, 0, 0, 2, layout=200, offsets=(84 + 63, 0)),
    }
    i = {
        "alloc_24x40_u8": inplace(0, 24, 40, 1),
        "exact_37x53_u32": inplace(1, 37, 53, 4, a_mis=5, w_mis=9),
        "short_100x3_u16": inplace(2, 100, 3, 2, extra=0),
        "long_64x96_u64": inplace(3, 64, 96, 8, extra=100),
        "nomem_30x45_esize3": inplace(4, 30, 45, 3),
        "nomem_256x2_u128": inplace(4, 256, 2, 16),
        "gcd_96x160_u8": inplace(1, 96, 160, 1),
        "null": inplace(0, 5, 7, 4, flags=240),
        "overflow": inplace(0, "SIZE_MAX/3", 5, 1),
        "esize_0": inplace(1, 3, 4, 0),
        "square_33_ld40_u32": square(33, 7, 4, mis=3),
        "square_64_u8": square(64, 0, 1),
        "square_ld_short": square(9, "short", 2),
        "square_esize12": square(20, 1, 12),
    }
    p = {
        "plan_256x2_u64": plan(256, 2, applies=[(8, 0, 0), (1, 3, 0)]),
        "plan_7x5_misaligned": plan(7, 5, mis=13, applies=[(4, 1, 0)], junk=(2, 4)),
        "plan_long_buffer": plan(12, 20, mode=1, applies=[(3, 0, 0)], junk=(3, 1)),
        "plan_short_buffer": plan(9, 4, mode=2),
        "plan_null": plan(9, 4, mode=4),
        "plan_empty": plan(0, 9, applies=[(4, 0, 240)]),
        "plan_overflow": plan("SIZE_MAX/2", 3),
        "plan_esize_huge": plan(3, 5, applies=[("SIZE_MAX/3", 0, 0)]),
        "plan_apply_null": plan(6, 6, applies=[(2, 0, 240)], junk=(1, 0)),
    }
    t = {
        "rank2_swap_u32": permute(0, [5, 7], [1, 0], 4),
        "rank3_021_u8": permute(0, [3, 20, 33], [0, 2, 1], 1),
        "rank4_3120_padded": permute(0, [2, 3, 4, 5], [3, 1, 2, 0], 2,
                                     src_pads=[0, 1, 2, 3], dst_pads=[1, 0, 3, 0]),
        "rank5_runs_esize12": permute(0, [2, 3, 2, 3, 4], [1, 0, 3, 2, 4], 12),
        "rank0_one_element": permute(0, [], [], 8),
        "rank8": permute(1, [2, 1, 3, 2, 2, 1, 2, 3], [7, 6, 5, 4, 3, 2, 1, 0], 1),
        "plan_copy_describe": permute(2, [6, 9, 4], [2, 0, 1], 4),
        "plan_long": permute(1, [4, 4], [1, 0], 8, plan_mode=1),
        "plan_null": permute(1, [4, 4], [1, 0], 8, plan_mode=3),
        "dup_axis": permute(0, [3, 3, 3], [0, 1, 2], 1, bad_perm=[225, 0]),
        "axis_out_of_range": permute(0, [3, 3], [1, 0], 1, bad_perm=[240, 1, 0]),
        "outer_short": permute(0, [3, 4], [1, 0], 4, src_pads=["short", 0]),
        "outer_huge": permute(0, [3, 4], [1, 0], 4, dst_pads=[0, "SIZE_MAX/2"]),
        "extent_zero_null": permute(0, [3, 0, 2], [2, 1, 0], 4, nulls=250),
        "dims_null": permute(0, [3, 2], [1, 0], 4, nulls=240),
        "one_buffer": permute(0, [4, 6], [1, 0], 2, layout=200),
        "rank17": [0, 245] + [0] * 40,
    }
    return {"fuzz_matrix": m, "fuzz_inplace": i, "fuzz_plan": p, "fuzz_permute": t}


def main():
    for harness, files in seeds().items():
        folder = os.path.join(HERE, "corpus", harness)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name, data in sorted(files.items()):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(bytes(data))
        print(f"{harness}: {len(files)} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
