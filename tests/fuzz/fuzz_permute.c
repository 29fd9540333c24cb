/* fuzz_permute.c - libFuzzer harness for tpose_permute and the permute plans: statuses
   against api.md's rules, results byte-exact against a naive N-d walk, nothing else written. */
#include "fuzz_common.h"

#include "../../transpose_tensor.h"

#define MAXR (TPOSE_MAX_RANK + 1) /* room for one axis more than allowed */

typedef struct call {
    size_t rank, esize, dims[MAXR], perm[MAXR], so[MAXR], dout[MAXR];
    const size_t *d, *p, *src_outer, *dst_outer; /* the arrays passed, NULL or the above */
} call;

/* An outer extent: mostly the extent plus a little, sometimes one short or huge. */
static size_t pick_outer(fz_in *in, size_t extent)
{
    const unsigned b = fz_byte(in);
    if (b < 200) return extent + b % 4;
    if (b < 240) return extent + fz_below(in, 17);
    if (b < 248) return extent > 0 ? extent - 1 : 0;
    return fz_huge(in);
}

/* Byte strides of a row-major tensor, as api.md defines them; bit k of *bad set where stride
   k overflowed. Returns the span (esize + sum (dims[k] - 1) * stride[k]) or 0 on overflow. */
static size_t strides(size_t *st, unsigned *bad, const size_t *outer, const size_t *ext,
                      size_t rank, size_t esize)
{
    size_t k = rank, step = esize, span = esize, t;
    int over = 0;
    *bad = 0;
    while (k-- > 0) {
        st[k] = step;
        if (over) *bad |= 1u << k;
        if (ext[k] > 1 && (over || !fz_mul(ext[k] - 1, step, &t) || !fz_add(span, t, &span)))
            return 0;
        if (!fz_mul(step, outer ? outer[k] : ext[k], &step)) over = 1;
    }
    return span;
}

/* The statuses api.md requires (must) and tolerates (may); spans and strides when valid.
   Without `ptrs` only the shape is judged (a plan, or sizing the buffers). */
static int expect_status(const call *c, const void *dst, const void *src, int ptrs, unsigned *must,
                         unsigned *may, size_t *ss, size_t *ds, size_t *sspan, size_t *dspan)
{
    size_t k, t, dd[MAXR], seen = 0;
    unsigned bad_s, bad_d;
    *must = *may = 0;
    *sspan = *dspan = 0;
    if (c->esize == 0) *must |= FZ_BIT(TPOSE_ERR_ESIZE);
    if (c->rank > TPOSE_MAX_RANK) return *must |= FZ_BIT(TPOSE_ERR_ARG), 0;
    if (c->rank > 0 && (!c->d || !c->p)) return *must |= FZ_BIT(TPOSE_ERR_NULL), 0;
    for (k = 0; k < c->rank; k++) {
        if (c->p[k] >= c->rank || (seen >> c->p[k] & 1)) return *must |= FZ_BIT(TPOSE_ERR_ARG), 0;
        seen |= (size_t)1 << c->p[k];
        dd[k] = c->d[c->p[k]];
    }
    if (c->esize == 0) return 0;
    for (k = 0; k < c->rank; k++)
        if ((c->src_outer && c->src_outer[k] < c->d[k]) ||
            (c->dst_outer && c->dst_outer[k] < dd[k]))
            *must |= FZ_BIT(TPOSE_ERR_LD);
    for (k = 0; k < c->rank; k++)
        if (c->d[k] == 0) { /* empty: a no-op; whether short outer extents still count is open */
            *may |= *must;
            *must = 0;
            return 0;
        }
    *sspan = strides(ss, &bad_s, c->src_outer, c->d, c->rank, c->esize);
    *dspan = strides(ds, &bad_d, c->dst_outer, dd, c->rank, c->esize);
    for (t = c->esize, k = 0; k < c->rank && fz_mul(t, c->d[k], &t); k++) continue;
    if (*sspan == 0 || *dspan == 0 || k < c->rank) /* k < rank: the elements' bytes overflow */
        *must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    if (bad_s | bad_d) *may |= FZ_BIT(TPOSE_ERR_OVERFLOW); /* an unused stride: stricter */
    if (!ptrs || *must) return 1;
    if (!dst || !src)
        *must |= FZ_BIT(TPOSE_ERR_NULL);
    else if (fz_wraps(src, *sspan) || fz_wraps(dst, *dspan))
        *must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    else if (fz_intersect(src, *sspan, dst, *dspan))
        *must |= FZ_BIT(TPOSE_ERR_OVERLAP);
    return 1;
}

/* dst = the permuted src, element by element over every source index. */
FZ_NOCOV static void reference(unsigned char *dst, const size_t *ds, const unsigned char *src,
                               const size_t *ss, const call *c)
{
    size_t i[MAXR] = {0}, k, so, doff;
    for (;;) {
        so = doff = 0;
        for (k = 0; k < c->rank; k++) {
            so += i[k] * ss[k];
            doff += i[c->perm[k]] * ds[k];
        }
        memcpy(dst + doff, src + so, c->esize);
        for (k = c->rank; k-- > 0;) { /* odometer, last axis fastest */
            if (++i[k] < c->dims[k]) break;
            i[k] = 0;
        }
        if (k == (size_t)-1) return;
    }
}

/* A permute plan made (and maybe moved with memcpy), checked and applied. */
static int plan_call(fz_in *in, const call *c, void *dst, const void *src, int empty,
                     unsigned shape_must, unsigned shape_may, unsigned ptr_must)
{
    const size_t need = tpose_permute_plan_bytes(c->rank);
    const unsigned mode = fz_byte(in), mis = fz_byte(in) % 64;
    size_t bytes = need, cut, k;
    unsigned must = shape_must;
    char text[96];
    fz_buf plan, moved;
    const unsigned char *pp;
    int st, len;
    if ((c->rank <= TPOSE_MAX_RANK) != (need > 0)) fz_fail("plan_bytes(%zu) = %zu", c->rank, need);
    if (mode % 4 == 1) bytes += fz_below(in, 64);
    if (mode % 4 == 2 && need > 0) bytes = need - 1 - fz_below(in, need);
    fz_buf_make(&plan, bytes, mis, mode);
    if (mode % 4 == 3)
        must |= FZ_BIT(TPOSE_ERR_NULL);
    else if (bytes < need)
        must |= FZ_BIT(TPOSE_ERR_WORKSPACE);
    fz_buf_seal(&plan, must != 0);
    st = tpose_permute_plan_init(mode % 4 == 3 ? NULL : plan.data, bytes, c->dst_outer,
                                 c->src_outer, c->rank, c->d, c->p, c->esize);
    fz_status(st, must, shape_may, "tpose_permute_plan_init");
    if (st != TPOSE_OK) {
        fz_buf_unchanged(&plan, "plan buffer after error");
        fz_buf_free(&plan);
        return st;
    }
    fz_buf_guards(&plan, "plan buffer guards");
    fz_buf_make(&moved, need, fz_byte(in), 5); /* plans may be copied with memcpy */
    memcpy(moved.data, plan.data, need);
    fz_buf_seal(&moved, 0);
    fz_buf_free(&plan);
    pp = moved.data;
    if (!(tpose_permute_plan_cost(pp) > 0 && tpose_permute_plan_cost(pp) < 1e300))
        fz_fail("cost %g", tpose_permute_plan_cost(pp));
    /* describe is snprintf: at most buf_bytes written, zero-terminated, full length back */
    cut = fz_below(in, sizeof text + 1);
    memset(text, 0x5A, sizeof text);
    len = tpose_permute_plan_describe(pp, text, cut);
    if (len <= 0 || tpose_permute_plan_describe(pp, NULL, 0) != len ||
        (cut > 0 && strlen(text) != ((size_t)len < cut ? (size_t)len : cut - 1)))
        fz_fail("describe returned %d into %zu bytes", len, cut);
    for (k = cut; k < sizeof text; k++)
        if (text[k] != 0x5A) fz_fail("describe wrote byte %zu of a %zu-byte buffer", k, cut);
    st = tpose_permute_plan_apply(pp, dst, src);
    fz_status(st, empty ? 0 : ptr_must, 0, "tpose_permute_plan_apply");
    fz_buf_free(&moved);
    return st;
}

/* Not a plan (only the tag differs from a plan's; see fuzz_plan.c): ARG, nothing written. */
static void not_a_plan(fz_in *in, void *dst, const void *src)
{
    const size_t n = tpose_permute_plan_bytes(2), dims[2] = {2, 3}, perm[2] = {1, 0};
    unsigned char *junk = (unsigned char *)fz_alloc(n), *good = (unsigned char *)fz_alloc(n);
    size_t i;
    for (i = 0; i < n; i++) junk[i] = (unsigned char)fz_byte(in);
    if (tpose_permute_plan_init(good, n, NULL, NULL, 2, dims, perm, 1) != TPOSE_OK)
        fz_fail("a 2 x 3 permute plan failed");
    if (memcmp(junk, good, 4) == 0) junk[0] ^= 1; /* the tag: a uint32 here */
    fz_note("tpose_permute_plan_apply(not a plan)");
    if (tpose_permute_plan_apply(junk, dst, src) != TPOSE_ERR_ARG ||
        tpose_permute_plan_cost(junk) != 1.0)
        fz_fail("a buffer that is not a plan was taken for one");
    free(junk);
    free(good);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const unsigned op = fz_byte(&in) % 3, rb = fz_byte(&in);
    size_t ss[MAXR], ds[MAXR], sspan, dspan, k, t, src_off = 0, dst_off = 0;
    unsigned must, may, shape_must, shape_may, layout, nulls, sm, dm;
    int empty, st, shared;
    call c;
    fz_buf a, b;
    unsigned char *src, *dst, *want;

    memset(&c, 0, sizeof c);
    c.rank = rb < 220 ? rb % 9 : rb < 245 ? 9 + rb % 8 : rb < 250 ? 17 : fz_huge(&in);
    for (k = 0; k < MAXR && k < c.rank; k++) {
        const unsigned e = fz_byte(&in);
        c.dims[k] = e < 180   ? 1 + e % 4
                    : e < 215 ? e % 41
                    : e < 230 ? 0
                    : e < 245 ? 1
                              : fz_huge(&in);
        c.perm[k] = k;
    }
    for (k = c.rank < MAXR ? c.rank : MAXR; k-- > 1;) { /* Fisher-Yates from the input */
        const size_t j = fz_below(&in, k + 1);
        t = c.perm[k], c.perm[k] = c.perm[j], c.perm[j] = t;
    }
    t = fz_byte(&in); /* sometimes not a permutation */
    if (t >= 225 && c.rank >= 1 && c.rank < MAXR) {
        k = fz_below(&in, c.rank);
        c.perm[k] = t < 235 && c.rank >= 2 ? c.perm[(k + 1) % c.rank]
                    : t < 250              ? c.rank + fz_below(&in, 3)
                                           : fz_huge(&in);
    }
    sm = fz_byte(&in);
    dm = fz_byte(&in);
    for (k = 0; k < MAXR && k < c.rank; k++) {
        c.so[k] = pick_outer(&in, c.dims[k]);
        c.dout[k] = pick_outer(&in, c.perm[k] < MAXR ? c.dims[c.perm[k]] : 1);
    }
    c.esize = fz_esize(&in);
    layout = fz_byte(&in);
    nulls = fz_byte(&in);
    c.d = nulls >= 240 && nulls < 244 ? NULL : c.dims;
    c.p = nulls >= 244 && nulls < 248 ? NULL : c.perm;
    c.src_outer = sm < 128 ? NULL : c.so;
    c.dst_outer = dm < 128 ? NULL : c.dout;
    shared = layout >= 180;

    /* `empty`: nothing to move (an empty tensor, or arguments rejected before the spans) */
    empty = !expect_status(&c, NULL, NULL, 0, &shape_must, &shape_may, ss, ds, &sspan, &dspan);
    if (!shape_must && (sspan > FZ_MAX_BYTES || dspan > FZ_MAX_BYTES)) return 0;
    for (t = 1, k = 0; !shape_must && !empty && k < c.rank; k++) t *= c.dims[k];
    if (t > (1u << 16)) return 0; /* the reference walks every element */
    if (shape_must || empty) sspan = dspan = 256;
    if (shared) {
        src_off = fz_below(&in, dspan + 64);
        dst_off = fz_below(&in, sspan + 64);
        fz_buf_make(&a, src_off + sspan > dst_off + dspan ? src_off + sspan : dst_off + dspan, 0,
                    layout);
        src = a.data + src_off;
        dst = a.data + dst_off;
    } else {
        fz_buf_make(&a, sspan, fz_byte(&in), layout);
        fz_buf_make(&b, dspan, fz_byte(&in), layout + 1);
        src = a.data;
        dst = b.data;
    }
    if (nulls >= 248) {
        if (nulls % 3 != 1) src = NULL;
        if (nulls % 3 != 0) dst = NULL;
    }
    expect_status(&c, dst, src, 1, &must, &may, ss, ds, &sspan, &dspan);
    fz_note("op %u rank %zu dims %zu,%zu,%zu,%zu.. perm %zu,%zu,%zu,%zu.. src_outer %s "
            "dst_outer %s esize %zu src %s dst %s (%s, offsets %zu %zu)",
            op, c.rank, c.dims[0], c.dims[1], c.dims[2], c.dims[3], c.perm[0], c.perm[1], c.perm[2],
            c.perm[3], c.src_outer ? "given" : "NULL", c.dst_outer ? "given" : "NULL", c.esize,
            src ? "buf" : "NULL", dst ? "buf" : "NULL", shared ? "one buffer" : "two", src_off,
            dst_off);
    fz_buf_seal(&a, must != 0);
    if (!shared) fz_buf_seal(&b, must != 0);

    if (op == 0)
        st = tpose_permute(dst, c.dst_outer, src, c.src_outer, c.rank, c.d, c.p, c.esize);
    else
        st = plan_call(&in, &c, dst, src, empty, shape_must, shape_may, must);
    if (op == 0) fz_status(st, must, may, "tpose_permute"); /* plan_call checks its own */

    /* every buffer as filled, plus the permuted tensor on success */
    want = (unsigned char *)fz_alloc(shared ? a.total : b.total);
    memcpy(want, shared ? a.before : b.before, shared ? a.total : b.total);
    if (st == TPOSE_OK && !empty)
        reference(want + (shared ? dst - a.raw : b.data - b.raw), ds, a.before + (src - a.raw), ss,
                  &c);
    if (!shared) fz_buf_unchanged(&a, "source");
    fz_buf_expect(shared ? &a : &b, want, st == TPOSE_OK ? "destination after OK" : "after error");
    if (op == 2) not_a_plan(&in, shared ? a.data : b.data, shared ? a.data + 1 : a.data);
    free(want);
    fz_buf_free(&a);
    if (!shared) fz_buf_free(&b);
    return 0;
}
