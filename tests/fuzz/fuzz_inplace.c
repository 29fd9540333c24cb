/* fuzz_inplace.c - libFuzzer harness for tpose_inplace (no, exact, short and long
   workspaces; failing allocation) and tpose_inplace_square: statuses, exact bytes, and
   data left as it was on every error. */
#include "fuzz_common.h"

/* Count the library's allocations and make them fail on demand: the O(1)-memory fallback
   runs only when TPOSE_MALLOC returns NULL. */
static int fz_mallocs, fz_malloc_fails;
static void *fz_malloc(size_t bytes)
{
    fz_mallocs++;
    return fz_malloc_fails ? NULL : malloc(bytes);
}
#define TPOSE_MALLOC(bytes) fz_malloc(bytes)
#define TPOSE_FREE(ptr)     free(ptr)
#include "../../transpose_inplace.h"

enum { OP_NULL, OP_EXACT, OP_SHORT, OP_LONG, OP_NOMEM, OP_SQUARE, OP_COUNT };

/* The statuses api.md requires of tpose_inplace; *bytes the matrix's when it fits. */
static unsigned expect_inplace(const void *a, size_t rows, size_t cols, size_t esize,
                               const void *work, size_t work_bytes, size_t ws, size_t *bytes)
{
    unsigned must = 0;
    *bytes = 0;
    if (esize == 0) return FZ_BIT(TPOSE_ERR_ESIZE);
    if (rows == 0 || cols == 0) return 0;
    if (a == NULL) must |= FZ_BIT(TPOSE_ERR_NULL);
    if (!fz_mul(rows, cols, bytes) || !fz_mul(*bytes, esize, bytes) || fz_wraps(a, *bytes)) {
        must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
        *bytes = 0;
    }
    if (work != NULL && work_bytes < ws) must |= FZ_BIT(TPOSE_ERR_WORKSPACE);
    return must;
}

/* tpose_inplace_workspace's documented values: 0 where nothing is needed, SIZE_MAX where
   the shape cannot exist. */
static void check_workspace(size_t rows, size_t cols, size_t esize, size_t ws)
{
    size_t t;
    const int fits = fz_mul(rows, cols, &t) && fz_mul(t, esize, &t);
    if (esize == 0 || rows == 0 || cols == 0) {
        /* esize 0 with rows * cols overflowing is both "esize 0" and "cannot exist" */
        if (ws != 0 && !(ws == SIZE_MAX && !fz_mul(rows, cols, &t)))
            fz_fail("workspace %zu for an empty matrix or esize 0", ws);
    } else if (!fits) {
        if (ws != SIZE_MAX) fz_fail("workspace %zu for a shape that overflows", ws);
    } else if ((rows == cols || rows == 1 || cols == 1) && ws != 0) {
        fz_fail("workspace %zu for a square or single-row/column shape", ws);
    }
}

static int fuzz_square(fz_in *in)
{
    const size_t n = fz_extent(in, 48, 300), ld = fz_ld(in, n), esize = fz_esize(in);
    const unsigned mis = fz_byte(in) % 64, flags = fz_byte(in);
    unsigned must = 0, may = 0;
    size_t bytes = 0, t;
    fz_buf a;
    unsigned char *p, *want;
    int st;
    if (esize == 0)
        must |= FZ_BIT(TPOSE_ERR_ESIZE);
    else if (n > 0 && ld < n)
        must |= FZ_BIT(TPOSE_ERR_LD);
    else if (n > 0 && !fz_span(n, n, ld, esize, &bytes))
        must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    else if (n > 0 && !fz_mul(ld, esize, &t))
        may |= FZ_BIT(TPOSE_ERR_OVERFLOW); /* stricter */
    if (!must && bytes > FZ_MAX_BYTES) return 0;
    fz_buf_make(&a, must ? 256 : bytes, mis, fz_bits(in, 2));
    p = flags >= 240 ? NULL : a.data;
    if (p == NULL && n > 0 && esize > 0) must |= FZ_BIT(TPOSE_ERR_NULL);
    if (!must && fz_wraps(p, bytes)) must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    fz_note("tpose_inplace_square(a %s+%u, n %zu, ld %zu, esize %zu)", p ? "buf" : "NULL", mis, n,
            ld, esize);
    fz_buf_seal(&a, must != 0);
    st = tpose_inplace_square(p, n, ld, esize);
    fz_status(st, must, may, "tpose_inplace_square");
    want = (unsigned char *)fz_alloc(a.total);
    memcpy(want, a.before, a.total);
    if (st == TPOSE_OK) /* the block's transpose, the same leading dimension both sides */
        fz_ref_matrix(want + (a.data - a.raw), ld, a.before + (a.data - a.raw), ld, n, n, esize);
    fz_buf_expect(&a, want, st == TPOSE_OK ? "square block after OK" : "square after error");
    free(want);
    fz_buf_free(&a);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const int op = (int)(fz_byte(&in) % OP_COUNT);
    size_t rows, cols, esize, ws, bytes, work_bytes = 0;
    unsigned must, a_mis, w_mis, flags;
    fz_buf a, w;
    unsigned char *p, *want, *work = NULL;
    int st;

    if (op == OP_SQUARE) return fuzz_square(&in);
    rows = fz_extent(&in, 40, 300);
    cols = fz_extent(&in, 40, 300);
    esize = fz_esize(&in);
    a_mis = fz_byte(&in) % 64;
    w_mis = fz_byte(&in) % 64;
    flags = fz_byte(&in);
    ws = tpose_inplace_workspace(rows, cols, esize);
    fz_note("tpose_inplace_workspace(%zu, %zu, %zu) = %zu", rows, cols, esize, ws);
    check_workspace(rows, cols, esize, ws);

    /* the workspace the call is given */
    if (op == OP_EXACT) work_bytes = ws;
    if (op == OP_SHORT && ws > 0) work_bytes = ws - 1 - (size_t)(fz_bits(&in, 2) % ws);
    if (op == OP_LONG) work_bytes = ws > SIZE_MAX - 4096 ? ws : ws + fz_below(&in, 4096);
    must = expect_inplace(NULL, rows, cols, esize, NULL, 0, 0, &bytes) & ~FZ_BIT(TPOSE_ERR_NULL);
    if ((!must && bytes > FZ_MAX_BYTES) ||
        (op != OP_NULL && op != OP_NOMEM && !must && work_bytes > FZ_MAX_BYTES))
        return 0; /* valid but too big for a fast run */
    fz_buf_make(&a, must ? 256 : bytes, a_mis, fz_bits(&in, 2));
    fz_buf_make(&w, work_bytes <= FZ_MAX_BYTES ? work_bytes : 256, w_mis, 7);
    if (op != OP_NULL && op != OP_NOMEM) work = w.data;
    p = flags >= 240 ? NULL : a.data;
    must = expect_inplace(p, rows, cols, esize, work, work_bytes, ws, &bytes);
    fz_note("tpose_inplace(a %s+%u, rows %zu, cols %zu, esize %zu, work %s+%u, work_bytes %zu)"
            " op %d, workspace %zu",
            p ? "buf" : "NULL", a_mis, rows, cols, esize, work ? "buf" : "NULL", w_mis, work_bytes,
            op, ws);

    fz_buf_seal(&a, must != 0);
    fz_buf_seal(&w, must != 0);
    fz_mallocs = 0;
    fz_malloc_fails = op == OP_NOMEM;
    st = tpose_inplace(p, rows, cols, esize, work, work_bytes);
    fz_malloc_fails = 0;
    fz_status(st, must, 0, "tpose_inplace");
    if (work != NULL && fz_mallocs != 0) fz_fail("allocated with a workspace given");

    want = (unsigned char *)fz_alloc(a.total);
    memcpy(want, a.before, a.total);
    if (st == TPOSE_OK && bytes > 0) /* the dense cols x rows transpose, leading dim rows */
        fz_ref_matrix(want + (a.data - a.raw), rows, a.before + (a.data - a.raw), cols, rows, cols,
                      esize);
    fz_buf_expect(&a, want, st == TPOSE_OK ? "matrix after OK" : "matrix after error");
    if (st == TPOSE_OK)
        fz_buf_guards(&w, "workspace guards");
    else
        fz_buf_unchanged(&w, "workspace after error");
    free(want);
    fz_buf_free(&a);
    fz_buf_free(&w);
    return 0;
}
