/* bench_common.h - what every transpose benchmark shares: clocks (monotonic and the time
   stamp counter), pre-faulted page-aligned buffers, pools of distinct matrix pairs large
   enough that a measurement streams from memory, medians, and the memcpy baseline timed
   in the same process. Benchmarks only; the library never includes this. */
#ifndef TPOSE_BENCH_COMMON_H
#define TPOSE_BENCH_COMMON_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transpose.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TB_HAVE_TSC 1
#else
#define TB_HAVE_TSC 0
#endif

#define TB_MIB ((size_t)1 << 20)
#define TB_MAX_REPS 101

static inline double tb_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time-stamp-counter ticks (constant rate on this machine kind: 2.0 GHz); nanoseconds where
   there is no TSC. */
static inline uint64_t tb_ticks(void)
{
#if TB_HAVE_TSC
    return (uint64_t)__rdtsc();
#else
    return (uint64_t)(tb_seconds() * 1e9);
#endif
}

/* Set by -H: matrices on 2 MiB transparent huge pages where the system offers them
   (Linux madvise; `enabled` in /sys/kernel/mm/transparent_hugepage must not be `never`). */
static int tb_huge_pages = 0;

#define TB_HUGE ((size_t)2 << 20)

/* Set by -S: every pair of a pool shares one source matrix, which then stays in the caches
   where it fits, so only the destination's stores stream from memory: a diagnostic that
   separates the store side of a shape from its reads (memcpy is timed the same way). */
static int tb_shared_source = 0;

/* Page-aligned (2 MiB-aligned with -H), every page touched so no first-touch fault lands
   inside a measurement. */
static inline unsigned char *tb_alloc(size_t bytes)
{
    void *p = NULL;
    const size_t align = tb_huge_pages && bytes >= TB_HUGE ? TB_HUGE : 4096;
    if (posix_memalign(&p, align, bytes ? bytes : 1) != 0 || p == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu bytes\n", bytes);
        exit(2);
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == TB_HUGE && madvise(p, bytes, MADV_HUGEPAGE) != 0)
        fprintf(stderr, "bench: no huge pages here, using 4 KiB pages\n");
#endif
    memset(p, 0x5a, bytes);
    return (unsigned char *)p;
}

static int tb_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double tb_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, tb_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Distinct source/destination pairs cycled through in one measurement: enough of them
   that one pass moves at least `min_bytes` (so out-of-cache shapes really come from DRAM),
   or a single pair for a cache-resident measurement (min_bytes == 0). */
typedef struct tb_pool {
    unsigned char **src, **dst;
    size_t count;     /* pairs */
    size_t src_bytes; /* bytes of one source matrix */
    size_t dst_bytes; /* bytes of one destination matrix */
} tb_pool;

static inline tb_pool tb_pool_make(size_t src_bytes, size_t dst_bytes, size_t min_bytes)
{
    tb_pool p;
    size_t i;
    const size_t pair = src_bytes + dst_bytes;
    p.count = min_bytes ? (min_bytes + pair - 1) / pair : 1;
    p.src_bytes = src_bytes;
    p.dst_bytes = dst_bytes;
    p.src = (unsigned char **)malloc(p.count * sizeof *p.src);
    p.dst = (unsigned char **)malloc(p.count * sizeof *p.dst);
    if (!p.src || !p.dst) exit(2);
    for (i = 0; i < p.count; i++) {
        size_t j;
        if (i > 0 && tb_shared_source) { /* -S: filled once */
            p.src[i] = p.src[0];
        } else {
            p.src[i] = tb_alloc(src_bytes);
            for (j = 0; j < src_bytes; j += 64) p.src[i][j] = (unsigned char)(i + j / 64);
        }
        p.dst[i] = tb_alloc(dst_bytes);
    }
    return p;
}

static inline void tb_pool_free(tb_pool *p)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        if (i == 0 || p->src[i] != p->src[0]) free(p->src[i]); /* -S: shared */
        free(p->dst[i]);
    }
    free(p->src);
    free(p->dst);
    p->count = 0;
}

/* One pass of memcpy over the pool: every source copied to its destination. */
static inline void tb_memcpy_pass(const tb_pool *p, size_t bytes)
{
    size_t i;
    for (i = 0; i < p->count; i++) memcpy(p->dst[i], p->src[i], bytes);
}

/* Set by -w: warm data. The pool is one pair, and each timed pass follows an untimed pass
   of the same routine, so memcpy and the operation each find the caches as they leave them
   (a streaming kernel's evictions do not slow the memcpy that follows it, nor the reverse). */
static int tb_warm = 0;

/* Medians of `reps` alternating passes of memcpy and of the operation under test, so
   both see the same machine state: seconds per pass for each, and ticks per pass for the
   operation. `op` runs one pass over the pool and returns non-zero on failure. */
typedef struct tb_result {
    double op_seconds, memcpy_seconds, op_ticks;
} tb_result;

typedef int (*tb_pass_fn)(const tb_pool *pool, void *ctx);

static inline int tb_measure(const tb_pool *pool, size_t copy_bytes, tb_pass_fn op, void *ctx,
                             int reps, tb_result *out)
{
    double op_s[TB_MAX_REPS], cp_s[TB_MAX_REPS], op_t[TB_MAX_REPS];
    int r;
    if (reps > TB_MAX_REPS) reps = TB_MAX_REPS;
    if (op(pool, ctx) != 0) return 1; /* warm-up, and the status check */
    tb_memcpy_pass(pool, copy_bytes);
    for (r = 0; r < reps; r++) {
        double t0 = tb_seconds();
        uint64_t k0, k1;
        if (tb_warm) {
            tb_memcpy_pass(pool, copy_bytes);
            t0 = tb_seconds();
        }
        tb_memcpy_pass(pool, copy_bytes);
        cp_s[r] = tb_seconds() - t0;
        if (tb_warm) op(pool, ctx);
        k0 = tb_ticks();
        t0 = tb_seconds();
        op(pool, ctx);
        op_s[r] = tb_seconds() - t0;
        k1 = tb_ticks();
        op_t[r] = (double)(k1 - k0);
    }
    out->op_seconds = tb_median(op_s, reps);
    out->memcpy_seconds = tb_median(cp_s, reps);
    out->op_ticks = tb_median(op_t, reps);
    return 0;
}

/* The kernel named `name` (tpose_kernel_name), or -1: for -k and -l. */
static inline int tb_kernel_by_name(const char *name)
{
    int k;
    for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++)
        if (strcmp(name, tpose_kernel_name((tpose_kernel)k)) == 0) return k;
    return -1;
}

#endif
