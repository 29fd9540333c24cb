/* fuzz_matrix.c - libFuzzer harness for tpose_matrix / tpose_matrix_with: statuses against
   api.md's rules, results byte-exact against a naive transposition, nothing else written. */
#include "fuzz_common.h"

#include "../../transpose.h"

typedef struct call {
    int op; /* 0, 3: tpose_matrix_with(kernel); 1: tpose_matrix; 2: the same under a limit */
    tpose_kernel kernel, limit;
    size_t rows, cols, src_ld, dst_ld, esize;
    unsigned char *src, *dst;
} call;

static tpose_kernel pick_kernel(unsigned b)
{
    /* in range, just past the end, and far outside (the enum's unsigned representation) */
    if (b < 240) return (tpose_kernel)(b % (TPOSE_KERNEL_COUNT + 2));
    return (tpose_kernel)(b < 248 ? 1000u : UINT32_MAX - (b - 248));
}

/* The statuses api.md requires (must) and tolerates (may) for this call; *sb, *db the byte
   spans when they fit. Without `ptrs` the pointers are not judged (sizing the buffers). */
static void expect_status(const call *c, int ptrs, unsigned *must, unsigned *may, size_t *sb,
                          size_t *db)
{
    const int kernel_ok = (unsigned)c->kernel < (unsigned)TPOSE_KERNEL_COUNT;
    size_t t;
    *must = *may = 0;
    *sb = *db = 0;
    if (!kernel_ok) *must |= FZ_BIT(TPOSE_ERR_ARG);
    if (c->esize == 0) {
        *must |= FZ_BIT(TPOSE_ERR_ESIZE);
        return;
    }
    if (c->rows == 0 || c->cols == 0) {
        /* an empty matrix is a no-op, but a kernel this CPU lacks is refused all the same */
        if (kernel_ok && !tpose_kernel_supported(c->kernel, c->esize))
            *must |= FZ_BIT(TPOSE_ERR_UNSUPPORTED);
        return;
    }
    if (ptrs && (c->src == NULL || c->dst == NULL)) *must |= FZ_BIT(TPOSE_ERR_NULL);
    if (c->src_ld < c->cols || c->dst_ld < c->rows) *must |= FZ_BIT(TPOSE_ERR_LD);
    if (kernel_ok && !tpose_kernel_supported(c->kernel, c->esize))
        *must |= FZ_BIT(TPOSE_ERR_UNSUPPORTED);
    if (!fz_span(c->rows, c->cols, c->src_ld, c->esize, sb) ||
        !fz_span(c->cols, c->rows, c->dst_ld, c->esize, db) || !fz_mul(c->rows, c->cols, &t) ||
        !fz_mul(t, c->esize, &t)) {
        *must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
        *sb = *db = 0;
        return;
    }
    /* the library also rejects a leading dimension whose bytes overflow, even where no span
       uses it (one row): stricter than api.md's spans, tolerated */
    if (!fz_mul(c->src_ld, c->esize, &t) || !fz_mul(c->dst_ld, c->esize, &t))
        *may |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    if (!ptrs) return;
    if (fz_wraps(c->src, *sb) || fz_wraps(c->dst, *db))
        *must |= FZ_BIT(TPOSE_ERR_OVERFLOW);
    else if (c->src && c->dst && fz_intersect(c->src, *sb, c->dst, *db))
        *must |= FZ_BIT(TPOSE_ERR_OVERLAP);
}

static size_t cap(size_t need)
{
    return need < FZ_MAX_BYTES ? need : 256;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    fz_buf a, b; /* source and destination; `a` alone when they share one buffer */
    call c;
    unsigned must, may, layout, src_mis, dst_mis;
    size_t sb, db, src_off = 0, dst_off = 0;
    int shared, st;
    unsigned char *want;
    uint64_t seed;

    c.op = (int)(fz_byte(&in) % 4);
    c.kernel = c.op == 0 || c.op == 3 ? pick_kernel(fz_byte(&in)) : TPOSE_KERNEL_AUTO;
    c.limit = c.op == 2 ? pick_kernel(fz_byte(&in)) : TPOSE_KERNEL_AUTO;
    c.rows = fz_extent(&in, 48, 300);
    c.cols = fz_extent(&in, 48, 300);
    c.src_ld = fz_ld(&in, c.cols);
    c.dst_ld = fz_ld(&in, c.rows);
    c.esize = fz_esize(&in);
    layout = fz_byte(&in);
    src_mis = fz_byte(&in) % 64;
    dst_mis = fz_byte(&in) % 64;
    seed = fz_bits(&in, 2);
    shared = layout >= 180 && layout < 240;

    /* the spans first, to size the buffers */
    c.src = c.dst = NULL;
    expect_status(&c, 0, &must, &may, &sb, &db);
    if (!must && (sb > FZ_MAX_BYTES || db > FZ_MAX_BYTES)) return 0; /* valid but too big */
    sb = cap(sb);
    db = cap(db);
    if (shared) {
        /* both in one buffer, at offsets that overlap or not */
        src_off = src_mis + fz_below(&in, db + 64);
        dst_off = dst_mis + fz_below(&in, sb + 64);
        fz_buf_make(&a, (src_off + sb > dst_off + db ? src_off + sb : dst_off + db), 0, seed);
        c.src = a.data + src_off;
        c.dst = a.data + dst_off;
    } else {
        fz_buf_make(&a, sb, src_mis, seed);
        fz_buf_make(&b, db, dst_mis, seed + 1);
        c.src = a.data;
        c.dst = b.data;
    }
    if (layout >= 240) {
        if (layout % 3 != 1) c.src = NULL;
        if (layout % 3 != 0) c.dst = NULL;
    }
    expect_status(&c, 1, &must, &may, &sb, &db);
    fz_note("op %d kernel %u limit %u rows %zu cols %zu src_ld %zu dst_ld %zu esize %zu "
            "src %s+%zu dst %s+%zu (%s)",
            c.op, (unsigned)c.kernel, (unsigned)c.limit, c.rows, c.cols, c.src_ld, c.dst_ld,
            c.esize, c.src ? "buf" : "NULL", shared ? src_off : src_mis, c.dst ? "buf" : "NULL",
            shared ? dst_off : dst_mis, shared ? "one buffer" : "two buffers");

    fz_buf_seal(&a, must != 0);
    if (!shared) fz_buf_seal(&b, must != 0);

    if (c.op == 2) {
        tpose_kernel pick;
        tpose_kernel_limit(c.limit);
        pick = tpose_kernel_auto(c.rows, c.cols, c.esize ? c.esize : 1);
        st = tpose_matrix(c.dst, c.dst_ld, c.src, c.src_ld, c.rows, c.cols, c.esize);
        tpose_kernel_limit(TPOSE_KERNEL_AUTO); /* the limit is process-wide: lift it */
        if (pick == TPOSE_KERNEL_AUTO || ((unsigned)c.limit < (unsigned)TPOSE_KERNEL_COUNT &&
                                          c.limit != TPOSE_KERNEL_AUTO && pick > c.limit))
            fz_fail("tpose_kernel_auto picked %s (%u) under the limit", tpose_kernel_name(pick),
                    (unsigned)pick);
    } else if (c.op == 1) {
        st = tpose_matrix(c.dst, c.dst_ld, c.src, c.src_ld, c.rows, c.cols, c.esize);
    } else {
        st = tpose_matrix_with(c.kernel, c.dst, c.dst_ld, c.src, c.src_ld, c.rows, c.cols, c.esize);
    }
    fz_status(st, must, may, "tpose_matrix");
    if (tpose_status_str((tpose_status)st) == NULL || tpose_kernel_name(c.kernel) == NULL)
        fz_fail("a name is NULL");

    /* the image every buffer must now hold: as filled, plus the transpose on success */
    if (shared) {
        want = (unsigned char *)fz_alloc(a.total);
        memcpy(want, a.before, a.total);
        if (st == TPOSE_OK && c.rows && c.cols)
            fz_ref_matrix(want + (c.dst - a.raw), c.dst_ld, a.before + (c.src - a.raw), c.src_ld,
                          c.rows, c.cols, c.esize);
        fz_buf_expect(&a, want, st == TPOSE_OK ? "shared buffer after OK" : "buffer after error");
    } else {
        want = (unsigned char *)fz_alloc(b.total);
        memcpy(want, b.before, b.total);
        if (st == TPOSE_OK && c.rows && c.cols)
            fz_ref_matrix(want + (b.data - b.raw), c.dst_ld, a.before + (a.data - a.raw), c.src_ld,
                          c.rows, c.cols, c.esize);
        fz_buf_unchanged(&a, "source");
        fz_buf_expect(&b, want, st == TPOSE_OK ? "destination after OK" : "dst after error");
        fz_buf_free(&b);
    }
    free(want);
    fz_buf_free(&a);
    return 0;
}
