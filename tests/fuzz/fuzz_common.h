/* fuzz_common.h - what the libFuzzer harnesses share: an input reader, checked size
   arithmetic, guarded buffers, byte-exact comparison, the status oracle and the reference
   transposition. Every failure prints what differed and aborts (libFuzzer saves the input). */
#ifndef TPOSE_FUZZ_COMMON_H
#define TPOSE_FUZZ_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Guards are also poisoned for ASan, so a read outside the data faults at once; so is the
   data itself where a call must fail, since validation comes before any access. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FZ_ASAN)
#define FZ_ASAN 1
#endif
#ifdef FZ_ASAN
#include <sanitizer/asan_interface.h>
#define FZ_POISON(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define FZ_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define FZ_POISON(p, n)   ((void)(p), (void)(n))
#define FZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* The harness's own loops (fill, compare, reference) stay out of libFuzzer's coverage: they
   would cost most of the run in comparison tracing and say nothing about the library (not
   inlined: coverage is added after inlining). */
#if defined(__clang__) && __clang_major__ >= 13
#define FZ_NOCOV __attribute__((no_sanitize("coverage"), noinline))
#else
#define FZ_NOCOV
#endif

#define FZ_PAD       64                 /* guard bytes before and after every buffer */
#define FZ_MAX_BYTES (4u << 20)         /* largest valid buffer a run allocates: keeps runs fast */
#define FZ_BIT(st)   (1u << -(int)(st)) /* a status as a bit: TPOSE_OK is bit 0 */

/* ---- input reader: missing bytes read as 0, so any input is a valid one ---------------- */

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline unsigned fz_byte(fz_in *in)
{
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

/* `bytes` bytes, little-endian */
static inline uint64_t fz_bits(fz_in *in, int bytes)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < bytes; i++) v |= (uint64_t)fz_byte(in) << (8 * i);
    return v;
}

/* 0 .. n-1 (n >= 1) */
static inline size_t fz_below(fz_in *in, size_t n)
{
    return (size_t)(fz_bits(in, n <= 256 ? 1 : n <= 65536 ? 2 : 4) % n);
}

/* Sizes near the top of size_t, where products and sums overflow. */
static inline size_t fz_huge(fz_in *in)
{
    static const size_t table[] = {SIZE_MAX,         SIZE_MAX - 1,          SIZE_MAX / 2,
                                   SIZE_MAX / 2 + 1, SIZE_MAX / 3,          SIZE_MAX / 16,
                                   (size_t)1 << 31,  ((size_t)1 << 32) + 1, (size_t)1 << 40,
                                   (size_t)1 << 62,  (size_t)65537 * 65537, SIZE_MAX / 64 + 3};
    return table[fz_below(in, sizeof table / sizeof table[0])];
}

/* An extent: mostly 0..small, sometimes up to big, sometimes 0 or huge. */
static inline size_t fz_extent(fz_in *in, size_t small, size_t big)
{
    const unsigned b = fz_byte(in);
    if (b < 200) return b % (small + 1);
    if (b < 235) return fz_below(in, big + 1);
    if (b < 245) return 0;
    return fz_huge(in);
}

/* An element size: the usual 1..32, odd ones, 0 and huge. */
static inline size_t fz_esize(fz_in *in)
{
    static const size_t odd[] = {3, 5, 6, 7, 12, 24, 33, 48, 63, 64, 100, 128, 257, 1000};
    const unsigned b = fz_byte(in);
    if (b < 200) return 1 + b % 32;
    if (b < 230) return odd[fz_below(in, sizeof odd / sizeof odd[0])];
    if (b < 240) return 0;
    return fz_huge(in);
}

/* A leading (outer) dimension for rows of `width`: mostly width plus a gap, sometimes below
   width (an error), 0 or huge. */
static inline size_t fz_ld(fz_in *in, size_t width)
{
    const unsigned b = fz_byte(in);
    size_t pad;
    if (b < 160)
        pad = b % 4 == 0 ? 0 : fz_below(in, 17);
    else if (b < 200)
        pad = fz_below(in, 301);
    else if (b < 225)
        return width > 0 ? width - 1 - fz_below(in, width < 8 ? width : 8) : 0;
    else if (b < 235)
        return 0;
    else
        return fz_huge(in);
    return width > SIZE_MAX - pad ? SIZE_MAX : width + pad;
}

/* ---- checked size arithmetic ------------------------------------------------------------ */

static inline int fz_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return 0;
    *out = a * b;
    return 1;
}

static inline int fz_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b) return 0;
    *out = a + b;
    return 1;
}

/* Bytes of a rows x cols matrix (rows, cols >= 1) with leading dimension ld, as api.md
   defines them: ((rows - 1) * ld + cols) * esize. 0 on overflow. */
static inline int fz_span(size_t rows, size_t cols, size_t ld, size_t esize, size_t *bytes)
{
    size_t e;
    return fz_mul(rows - 1, ld, &e) && fz_add(e, cols, &e) && fz_mul(e, esize, bytes);
}

/* Does [p, p + bytes) run past the end of the address space? */
static inline int fz_wraps(const void *p, size_t bytes)
{
    return p != NULL && (uintptr_t)p > UINTPTR_MAX - bytes;
}

static inline int fz_intersect(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + b_bytes && y < x + a_bytes;
}

/* ---- failure reports -------------------------------------------------------------------- */

static char fz_ctx[768]; /* the call under test, printed with every failure */

static inline void fz_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fz_ctx, sizeof fz_ctx, fmt, ap);
    va_end(ap);
}

static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nFUZZ FAILURE: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  call: %s\n", fz_ctx);
    abort();
}

/* ---- guarded buffers: a region of FZ_PAD + 63 + bytes + FZ_PAD; the data at a 64-byte
   boundary plus `mis`; everything else is guard. `before` is the region as filled. ----- */

typedef struct fz_buf {
    unsigned char *raw, *before, *data;
    size_t total, bytes;
} fz_buf;

static inline void *fz_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "fuzz: out of memory (%zu bytes)\n", bytes);
        abort();
    }
    return p;
}

/* Distinct-looking bytes from a seed, so a misplaced element shows. */
FZ_NOCOV static inline void fz_fill(unsigned char *p, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1, w;
    size_t i;
    for (i = 0; i < n; i += 8) { /* xorshift64*, eight bytes a step */
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        w = x * 0x2545F4914F6CDD1Dull;
        memcpy(p + i, &w, n - i < 8 ? n - i : 8);
    }
}

static inline void fz_buf_make(fz_buf *b, size_t bytes, size_t mis, uint64_t seed)
{
    const size_t lead = FZ_PAD + 63;
    b->bytes = bytes;
    b->total = lead + bytes + FZ_PAD;
    b->raw = (unsigned char *)fz_alloc(b->total);
    b->before = (unsigned char *)fz_alloc(b->total);
    b->data = b->raw + FZ_PAD + (64 - (uintptr_t)(b->raw + FZ_PAD) % 64) % 64 + mis % 64;
    fz_fill(b->raw, b->total, seed);
    memcpy(b->before, b->raw, b->total);
}

/* Poison the guards, and the data too when `all` (a call that must fail). */
static inline void fz_buf_seal(const fz_buf *b, int all)
{
    const size_t head = (size_t)(b->data - b->raw), tail = head + b->bytes;
    if (all) {
        FZ_POISON(b->raw, b->total);
        return;
    }
    FZ_POISON(b->raw, head);
    FZ_POISON(b->raw + tail, b->total - tail);
}

static inline void fz_buf_free(fz_buf *b)
{
    FZ_UNPOISON(b->raw, b->total);
    free(b->raw);
    free(b->before);
}

/* The region now must equal `want` (a full image of it) byte for byte. */
FZ_NOCOV static inline void fz_buf_expect(const fz_buf *b, const unsigned char *want,
                                          const char *what)
{
    size_t i, first = 0, count = 0;
    const ptrdiff_t start = b->data - b->raw;
    FZ_UNPOISON(b->raw, b->total);
    for (i = 0; i < b->total; i++)
        if (b->raw[i] != want[i] && count++ == 0) first = i;
    if (count)
        fz_fail("%s: %zu bytes differ, first at %td from the data start (buffer of %zu bytes):"
                " got 0x%02x, want 0x%02x",
                what, count, (ptrdiff_t)first - start, b->bytes, b->raw[first], want[first]);
}

static inline void fz_buf_unchanged(const fz_buf *b, const char *what)
{
    fz_buf_expect(b, b->before, what);
}

/* Only the guards must be as filled (a workspace's own bytes are the callee's). */
static inline void fz_buf_guards(const fz_buf *b, const char *what)
{
    unsigned char *want = (unsigned char *)fz_alloc(b->total);
    FZ_UNPOISON(b->raw, b->total);
    memcpy(want, b->raw, b->total);
    memcpy(want, b->before, (size_t)(b->data - b->raw));
    memcpy(want + (b->data - b->raw) + b->bytes, b->before + (b->data - b->raw) + b->bytes,
           b->total - (size_t)(b->data - b->raw) - b->bytes);
    fz_buf_expect(b, want, what);
    free(want);
}

/* ---- the status oracle ------------------------------------------------------------------ */

/* `must`: the statuses of the rules the arguments break (the call must fail with one of
   them); `may`: statuses also tolerated (a stricter check of the implementation, or a
   corner api.md leaves open; FZ_BIT(TPOSE_OK) there lets an invalid-looking call pass). */
static inline void fz_status(int got, unsigned must, unsigned may, const char *what)
{
    const unsigned allowed = must | may;
#ifdef FZ_TRACE /* -DFZ_TRACE: one line per checked call, to see what a corpus covers */
    fprintf(stderr, "trace: %s -> %d\n", what, got);
#endif
    const int ok = must ? (got < 0 && got >= -30 && (allowed & FZ_BIT(got)))
                        : (got == 0 || (got < 0 && got >= -30 && (may & FZ_BIT(got))));
    if (!ok)
        fz_fail("%s returned %d; must fail with one of mask 0x%x (bit k = status -k), may 0x%x",
                what, got, must, may);
}

/* ---- reference ---------------------------------------------------------------------------- */

/* dst (cols x rows, dst_ld) = transpose of src (rows x cols, src_ld), straight from the
   definition: element (r, c) starts at byte (r * ld + c) * esize. */
FZ_NOCOV static inline void fz_ref_matrix(unsigned char *dst, size_t dst_ld,
                                          const unsigned char *src, size_t src_ld, size_t rows,
                                          size_t cols, size_t esize)
{
    size_t r, c;
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            memcpy(dst + (c * dst_ld + r) * esize, src + (r * src_ld + c) * esize, esize);
}

#endif
