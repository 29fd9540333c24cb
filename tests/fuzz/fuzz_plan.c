/* fuzz_plan.c - libFuzzer harness for the in-place cycle plans: tpose_plan_bytes,
   tpose_plan_init into short, long, misaligned and NULL buffers, tpose_plan_apply with the
   plan and with buffers that are not plans. */
#include "fuzz_common.h"

#include "../../transpose_inplace.h"

#define FZ_MAX_ELEMS (1u << 16) /* tpose_plan_bytes walks every element: keep shapes small */
#define FZ_TAG       8          /* a plan's first bytes: the tag tpose_plan_apply tells plans by */

/* One apply of a good plan to a fresh rows x cols matrix. */
static void apply_once(fz_in *in, const unsigned char *plan, size_t pb, size_t rows, size_t cols)
{
    const size_t esize = fz_esize(in);
    const unsigned mis = fz_byte(in) % 64, flags = fz_byte(in);
    unsigned must = 0;
    size_t bytes = 0;
    fz_buf a;
    unsigned char *p, *want, *plan_before;
    int st;
    if (esize == 0)
        must |= FZ_BIT(TPOSE_ERR_ESIZE);
    else if (rows > 0 && cols > 0 && (!fz_mul(rows * cols, esize, &bytes)))
        must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    if (!must && bytes > FZ_MAX_BYTES) return;
    fz_buf_make(&a, must ? 256 : bytes, mis, flags * 31u + esize);
    p = flags >= 240 ? NULL : a.data;
    if (p == NULL && esize > 0 && rows > 0 && cols > 0) must |= FZ_BIT(TPOSE_ERR_NULL);
    if (fz_wraps(p, bytes)) must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    plan_before = (unsigned char *)fz_alloc(pb);
    memcpy(plan_before, plan, pb);
    fz_note("tpose_plan_apply(plan of %zu x %zu, a %s+%u, esize %zu)", rows, cols,
            p ? "buf" : "NULL", mis, esize);
    fz_buf_seal(&a, must != 0);
    st = tpose_plan_apply(plan, p, esize);
    fz_status(st, must, 0, "tpose_plan_apply");
    if (memcmp(plan, plan_before, pb) != 0) fz_fail("tpose_plan_apply changed the plan");
    want = (unsigned char *)fz_alloc(a.total);
    memcpy(want, a.before, a.total);
    if (st == TPOSE_OK && bytes > 0)
        fz_ref_matrix(want + (a.data - a.raw), rows, a.before + (a.data - a.raw), cols, rows, cols,
                      esize);
    fz_buf_expect(&a, want, st == TPOSE_OK ? "matrix after OK" : "matrix after error");
    free(want);
    free(plan_before);
    fz_buf_free(&a);
}

/* Applying what tpose_plan_init did not make: TPOSE_ERR_ARG, nothing written. Only the tag
   differs from a plan's: api.md promises to recognise buffers that are not plans, not
   plans whose recorded cycles were edited afterwards (those cannot be told apart). */
static void apply_not_a_plan(fz_in *in, const unsigned char *good, size_t good_bytes)
{
    unsigned char junk[FZ_TAG + 96], tag[64];
    const unsigned kind = fz_byte(in) % 4;
    const size_t esize = fz_esize(in);
    size_t i, n = sizeof junk;
    fz_buf a;
    unsigned may = 0;
    int st;
    if (tpose_plan_init(tag, sizeof tag, 2, 3) != TPOSE_OK) fz_fail("a 2 x 3 plan failed");
    if (kind == 0) memset(junk, 0, n);
    if (kind == 1) memset(junk, 0xFF, n);
    if (kind == 2)
        for (i = 0; i < n; i++) junk[i] = (unsigned char)fz_byte(in);
    if (kind == 3) { /* a real plan with its tag damaged */
        memset(junk, 0, n);
        memcpy(junk, good, good_bytes < n ? good_bytes : n);
        junk[fz_below(in, FZ_TAG)] ^= (unsigned char)(1 + fz_below(in, 255));
    }
    /* a plan by chance (or by the fuzzer's comparison tracing): spoil it */
    if (memcmp(junk, tag, FZ_TAG) == 0) junk[0] ^= 1;
    fz_buf_make(&a, 64, 0, 3);
    if (esize == 0) may |= FZ_BIT(TPOSE_ERR_ESIZE); /* which check comes first is open */
    fz_note("tpose_plan_apply(not a plan, kind %u, a buf, esize %zu)", kind, esize);
    fz_buf_seal(&a, 1);
    st = tpose_plan_apply(junk, a.data, esize);
    fz_status(st, FZ_BIT(TPOSE_ERR_ARG), may, "tpose_plan_apply");
    fz_buf_unchanged(&a, "matrix after not-a-plan");
    fz_buf_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const size_t rows = fz_extent(&in, 24, 400), cols = fz_extent(&in, 24, 400);
    unsigned mode = fz_byte(&in), mis = fz_byte(&in) % 64;
    size_t elems, pb, plan_bytes, i;
    const int fits = fz_mul(rows, cols, &elems);
    unsigned must = 0, applies;
    fz_buf plan;
    unsigned char *pp;
    int st;

    if (fits && elems > FZ_MAX_ELEMS) return 0; /* valid, but a slow walk */
    pb = tpose_plan_bytes(rows, cols);
    if (!fits ? pb != 0 : pb < 32 || (pb - 32) % 16 != 0 || (elems == 0 && pb != 32))
        fz_fail("tpose_plan_bytes(%zu, %zu) = %zu", rows, cols, pb);

    /* the plan buffer: exact, long, short, empty or NULL; any alignment */
    plan_bytes = pb;
    if (mode % 5 == 1) plan_bytes = pb + fz_below(&in, 64);
    if (mode % 5 == 2 && pb > 0) plan_bytes = pb - 1 - fz_below(&in, pb);
    if (mode % 5 == 3) plan_bytes = 0;
    fz_buf_make(&plan, fits ? plan_bytes : 64, mis, mode);
    pp = mode % 5 == 4 ? NULL : plan.data;
    if (pp == NULL) must |= FZ_BIT(TPOSE_ERR_NULL);
    if (!fits)
        must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    else if (plan_bytes < pb)
        must |= FZ_BIT(TPOSE_ERR_WORKSPACE);
    fz_note("tpose_plan_init(plan %s+%u, plan_bytes %zu, rows %zu, cols %zu), needs %zu",
            pp ? "buf" : "NULL", mis, plan_bytes, rows, cols, pb);
    fz_buf_seal(&plan, must != 0);
    st = tpose_plan_init(pp, plan_bytes, rows, cols);
    fz_status(st, must, 0, "tpose_plan_init");
    if (st != TPOSE_OK) {
        fz_buf_unchanged(&plan, "plan buffer after error");
    } else {
        fz_buf_guards(&plan, "plan buffer guards");
        fz_buf_seal(&plan, 0);
        applies = 1 + fz_byte(&in) % 3; /* one plan, several matrices and element sizes */
        for (i = 0; i < applies; i++) apply_once(&in, plan.data, pb, rows, cols);
        if (tpose_plan_apply(NULL, &mode, 1) != TPOSE_ERR_NULL)
            fz_fail("tpose_plan_apply(NULL plan) is not TPOSE_ERR_NULL");
        apply_not_a_plan(&in, plan.data, pb);
    }
    fz_buf_free(&plan);
    return 0;
}
