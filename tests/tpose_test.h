/* tpose_test.h - the small harness every test program shares: checks that count failures,
   guard-byte buffers, a seeded generator and the exit status (77 = skipped for Meson). */
#ifndef TPOSE_TEST_H
#define TPOSE_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TT_SKIP 77
#define TT_GUARD 0xA5 /* fill byte of everything a kernel must not write */
#define TT_PAD 64     /* guard bytes before and after every destination */

static long tt_failures;
static long tt_checks;

#define TT_CHECK(cond, ...)                                                                 \
    do {                                                                                    \
        tt_checks++;                                                                        \
        if (!(cond)) {                                                                      \
            if (tt_failures++ < 20) {                                                       \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);    \
                fprintf(stderr, __VA_ARGS__);                                               \
                fputc('\n', stderr);                                                        \
            }                                                                               \
        }                                                                                   \
    } while (0)

static inline int tt_finish(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, tt_checks, tt_failures);
    return tt_failures ? 1 : 0;
}

/* xorshift64*: reproducible shapes and contents from a fixed seed. */
static uint64_t tt_rng_state = 0x9E3779B97F4A7C15ull;

static inline uint64_t tt_rand(void)
{
    tt_rng_state ^= tt_rng_state >> 12;
    tt_rng_state ^= tt_rng_state << 25;
    tt_rng_state ^= tt_rng_state >> 27;
    return tt_rng_state * 0x2545F4914F6CDD1Dull;
}

static inline size_t tt_rand_below(size_t n) { return (size_t)(tt_rand() % n); }

static inline void *tt_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static inline void tt_fill_random(unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) p[i] = (unsigned char)(tt_rand() >> 56);
}

/* Index of the first differing byte, or (size_t)-1 when equal. */
static inline size_t tt_first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return i;
    return (size_t)-1;
}

/* The trivially correct reference: byte by byte, straight from the definition
   dst[(c * dst_ld + r) * esize + k] = src[(r * src_ld + c) * esize + k]. */
static inline void tt_reference(unsigned char *dst, size_t dst_ld, const unsigned char *src,
                         size_t src_ld, size_t rows, size_t cols, size_t esize)
{
    size_t r, c, k;
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            for (k = 0; k < esize; k++)
                dst[(c * dst_ld + r) * esize + k] = src[(r * src_ld + c) * esize + k];
}

#endif
