/* test_permute.c - tpose_permute and its plans (transpose_tensor.h) against an index loop
   straight from the definition: every rank 0..6 with random extents, every permutation of up
   to 4 axes at every element size, ranks up to 16, padded outer extents on either side,
   misaligned pointers, rank 2 against tpose_matrix, shapes large enough to stream; every
   status code with memory left untouched; plans copied with memcpy, their cost and their
   description. Each destination is compared whole, padding and guard bytes included. */
#include "transpose_tensor.h" /* the implementation is linked in (transpose_tensor.c) */
#include "tpose_test.h"

#include <float.h>

#ifdef TT_PERMUTE_THREADS
#include <pthread.h>
#endif

#define MAXR TPOSE_MAX_RANK
#define MIS  64 /* room for misaligning a pointer by 0..63 bytes */

static long case_no;          /* cycles the misalignments */
static int mis_override = -1; /* >= 0: source and destination misaligned by this instead */

/* One tensor pair: shape, permutation, outer extents (NULL when dense: has_*). */
typedef struct pcase {
    size_t rank, esize;
    size_t dims[MAXR], perm[MAXR];
    size_t src_outer[MAXR], dst_outer[MAXR];
    int has_src_outer, has_dst_outer;
} pcase;

/* ---- helpers ----------------------------------------------------------------------------- */

/* The product of n[0..rank-1], SIZE_MAX when it overflows. */
static size_t prod(const size_t *n, size_t rank)
{
    size_t k, p = 1;
    for (k = 0; k < rank; k++) {
        if (n[k] != 0 && p > (size_t)-1 / n[k]) return (size_t)-1;
        p *= n[k];
    }
    return p;
}

/* The destination extents, and the allocated extents of both sides (the extents when dense). */
static void extents(const pcase *c, size_t *dd, size_t *so, size_t *dout)
{
    size_t k;
    for (k = 0; k < c->rank; k++) {
        dd[k] = c->dims[c->perm[k]];
        so[k] = c->has_src_outer ? c->src_outer[k] : c->dims[k];
        dout[k] = c->has_dst_outer ? c->dst_outer[k] : dd[k];
    }
}

static void fill_fast(unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        const uint64_t r = tt_rand();
        memcpy(p + i, &r, 8);
    }
    for (; i < n; i++) p[i] = (unsigned char)(tt_rand() >> 56);
}

static const char *case_str(const pcase *c)
{
    static char s[1024];
    size_t k, len = 0;
    const char *names[4] = {"dims", "perm", "src_outer", "dst_outer"};
    const size_t *arr[4];
    int a;
    arr[0] = c->dims;
    arr[1] = c->perm;
    arr[2] = c->has_src_outer ? c->src_outer : NULL;
    arr[3] = c->has_dst_outer ? c->dst_outer : NULL;
    len += (size_t)sprintf(s + len, "rank %zu esize %zu", c->rank, c->esize);
    for (a = 0; a < 4; a++) {
        len += (size_t)sprintf(s + len, " %s ", names[a]);
        if (!arr[a]) {
            len += (size_t)sprintf(s + len, "NULL");
            continue;
        }
        len += (size_t)sprintf(s + len, "[");
        for (k = 0; k < c->rank; k++)
            len += (size_t)sprintf(s + len, k ? ",%zu" : "%zu", arr[a][k]);
        len += (size_t)sprintf(s + len, "]");
    }
    return s;
}

/* The oracle: an odometer over the destination index, the source offset from the definition
   offset = sum_k i[k] * prod_{j>k} outer[j] (elements), copied byte by byte. */
static void oracle(unsigned char *dst, const unsigned char *src, const pcase *c)
{
    size_t dd[MAXR], so[MAXR], dout[MAXR], idx[MAXR], sidx[MAXR], total, e, k, j;
    extents(c, dd, so, dout);
    total = prod(dd, c->rank);
    for (k = 0; k < c->rank; k++) idx[k] = 0;
    for (e = 0; e < total; e++) {
        size_t soff = 0, doff = 0, b;
        for (k = 0; k < c->rank; k++) sidx[c->perm[k]] = idx[k];
        for (k = 0; k < c->rank; k++) {
            doff = doff * dout[k] + idx[k];
            soff = soff * so[k] + sidx[k];
        }
        for (b = 0; b < c->esize; b++) dst[doff * c->esize + b] = src[soff * c->esize + b];
        for (j = c->rank; j-- > 0;) {
            if (++idx[j] < dd[j]) break;
            idx[j] = 0;
        }
    }
}

/* Where byte `at` of a destination buffer laid out as run_case's lies, for messages. */
static void explain_diff(const pcase *c, size_t at, size_t mis, char *out)
{
    size_t dd[MAXR], so[MAXR], dout[MAXR], k, elem, rem, idx[MAXR];
    int inside = 1;
    extents(c, dd, so, dout);
    if (at < TT_PAD + mis || at >= TT_PAD + mis + prod(dout, c->rank) * c->esize) {
        sprintf(out, "guard byte %zu of the buffer", at);
        return;
    }
    elem = (at - TT_PAD - mis) / c->esize;
    rem = elem;
    for (k = c->rank; k-- > 0;) {
        idx[k] = rem % dout[k];
        rem /= dout[k];
        if (idx[k] >= dd[k]) inside = 0;
    }
    sprintf(out, "%s element %zu (byte %zu of it), dst index [", inside ? "used" : "padding", elem,
            (at - TT_PAD - mis) % c->esize);
    for (k = 0; k < c->rank; k++) sprintf(out + strlen(out), k ? ",%zu" : "%zu", idx[k]);
    strcat(out, "]");
}

/* ---- one case through every entry point ------------------------------------------------- */

static char last_describe[512];

static void compare(const pcase *c, const unsigned char *got, const unsigned char *want, size_t len,
                    size_t mis, const char *api)
{
    const size_t d = tt_first_diff(got, want, len);
    if (d != (size_t)-1) {
        char where[512];
        explain_diff(c, d, mis, where);
        TT_CHECK(0, "%s: %s: first difference at %s: got %02x want %02x [plan: %s]", api,
                 case_str(c), where, got[d], want[d], last_describe);
    } else {
        TT_CHECK(1, "%s", api);
    }
}

static void check_plan_meta(const unsigned char *plan, const pcase *c)
{
    const double cost = tpose_permute_plan_cost(plan);
    int n;
    TT_CHECK(cost > 0.0 && cost <= DBL_MAX, "plan cost %g: %s", cost, case_str(c));
    n = tpose_permute_plan_describe(plan, last_describe, sizeof last_describe);
    TT_CHECK(n > 0 && (size_t)n < sizeof last_describe && strlen(last_describe) == (size_t)n,
             "describe returned %d for \"%s\"", n, last_describe);
}

/* Runs `c` through tpose_permute, plan_init + plan_apply, the plan copied to an odd address,
   and (rank 2 swapped) tpose_matrix; each destination must equal the oracle's buffer byte for
   byte, guards and padding included, and the source must be unchanged. */
/* Bytes from p to the next cache line. */
static size_t to_line(const unsigned char *p) { return (size_t)(0u - (uintptr_t)p) % 64; }

static void run_case(const pcase *c)
{
    size_t dd[MAXR], so[MAXR], dout[MAXR];
    size_t src_bytes, dst_bytes, len, pbytes;
    const size_t src_mis = mis_override >= 0 ? (size_t)mis_override : (size_t)case_no % 64;
    const size_t dst_mis =
        mis_override >= 0 ? (size_t)mis_override : (size_t)(case_no * 5 + 1) % 64;
    const size_t plan_mis = (size_t)(case_no * 3 + 1) % 64,
                 copy_mis = (size_t)(case_no * 2 + 1) % 64;
    unsigned char *srcbuf, *src, *srccopy, *dstbuf, *dst, *want, *planbuf, *plan, *copybuf, *copy;
    const size_t *so_arg, *do_arg;
    tpose_status st;
    size_t k, dst_off;
    case_no++;
    extents(c, dd, so, dout);
    src_bytes = prod(so, c->rank) * c->esize;
    dst_bytes = prod(dout, c->rank) * c->esize;
    so_arg = c->has_src_outer ? c->src_outer : NULL;
    do_arg = c->has_dst_outer ? c->dst_outer : NULL;

    /* misalignments count from a cache line (malloc's large blocks start 16 bytes past one) */
    srcbuf = (unsigned char *)tt_alloc(src_bytes + 2 * MIS);
    src = srcbuf + to_line(srcbuf) + src_mis;
    fill_fast(srcbuf, src_bytes + 2 * MIS);
    srccopy = (unsigned char *)tt_alloc(src_bytes);
    memcpy(srccopy, src, src_bytes);

    len = TT_PAD + 2 * MIS + dst_bytes + TT_PAD;
    dstbuf = (unsigned char *)tt_alloc(len);
    want = (unsigned char *)tt_alloc(len);
    dst_off = to_line(dstbuf + TT_PAD) + dst_mis;
    dst = dstbuf + TT_PAD + dst_off;
    memset(want, TT_GUARD, len);
    oracle(want + TT_PAD + dst_off, src, c);
    last_describe[0] = 0;

    /* a plan in misaligned caller memory, guarded on both sides (made first: its
       description goes into the messages) */
    pbytes = tpose_permute_plan_bytes(c->rank);
    TT_CHECK(pbytes > 0, "plan_bytes(%zu) = 0", c->rank);
    planbuf = (unsigned char *)tt_alloc(TT_PAD + MIS + pbytes + TT_PAD);
    memset(planbuf, TT_GUARD, TT_PAD + MIS + pbytes + TT_PAD);
    plan = planbuf + TT_PAD + plan_mis;
    st = tpose_permute_plan_init(plan, pbytes, do_arg, so_arg, c->rank, c->dims, c->perm, c->esize);
    TT_CHECK(st == TPOSE_OK, "plan_init: %s: %s", tpose_status_str(st), case_str(c));
    for (k = 0; k < TT_PAD + plan_mis; k++)
        if (planbuf[k] != TT_GUARD) break;
    TT_CHECK(k == TT_PAD + plan_mis, "plan_init wrote before the plan: %s", case_str(c));
    for (k = TT_PAD + plan_mis + pbytes; k < TT_PAD + MIS + pbytes + TT_PAD; k++)
        if (planbuf[k] != TT_GUARD) break;
    TT_CHECK(k == TT_PAD + MIS + pbytes + TT_PAD, "plan_init wrote past plan_bytes: %s",
             case_str(c));
    check_plan_meta(plan, c);

    /* one call */
    memset(dstbuf, TT_GUARD, len);
    st = tpose_permute(dst, do_arg, src, so_arg, c->rank, c->dims, c->perm, c->esize);
    TT_CHECK(st == TPOSE_OK, "tpose_permute: %s: %s", tpose_status_str(st), case_str(c));
    compare(c, dstbuf, want, len, dst_off, "tpose_permute");

    memset(dstbuf, TT_GUARD, len);
    st = tpose_permute_plan_apply(plan, dst, src);
    TT_CHECK(st == TPOSE_OK, "plan_apply: %s: %s", tpose_status_str(st), case_str(c));
    compare(c, dstbuf, want, len, dst_off, "plan_apply");

    /* the plan moved with memcpy to an odd address, the original overwritten */
    copybuf = (unsigned char *)tt_alloc(pbytes + MIS);
    copy = copybuf + copy_mis;
    memcpy(copy, plan, pbytes);
    memset(plan, 0x5A, pbytes);
    memset(dstbuf, TT_GUARD, len);
    st = tpose_permute_plan_apply(copy, dst, src);
    TT_CHECK(st == TPOSE_OK, "plan_apply (copy): %s: %s", tpose_status_str(st), case_str(c));
    compare(c, dstbuf, want, len, dst_off, "plan_apply (memcpy'd plan)");

    /* rank 2, axes swapped: the same bytes as tpose_matrix */
    if (c->rank == 2 && c->perm[0] == 1) {
        memset(dstbuf, TT_GUARD, len);
        st = tpose_matrix(dst, dout[1], src, so[1], c->dims[0], c->dims[1], c->esize);
        TT_CHECK(st == TPOSE_OK, "tpose_matrix: %s: %s", tpose_status_str(st), case_str(c));
        compare(c, dstbuf, want, len, dst_off, "tpose_matrix");
    }

    TT_CHECK(memcmp(srccopy, src, src_bytes) == 0, "source changed: %s", case_str(c));
    free(copybuf);
    free(planbuf);
    free(want);
    free(dstbuf);
    free(srccopy);
    free(srcbuf);
}

/* ---- shape generators -------------------------------------------------------------------- */

static void random_perm(size_t *perm, size_t rank)
{
    size_t k;
    for (k = 0; k < rank; k++) perm[k] = k;
    for (k = rank; k > 1; k--) {
        const size_t j = tt_rand_below(k), t = perm[k - 1];
        perm[k - 1] = perm[j];
        perm[j] = t;
    }
}

/* Extents drawn from `choice`, their product at most `cap` (the largest halved until it is). */
static void random_dims(size_t *dims, size_t rank, const size_t *choice, size_t nchoice, size_t cap)
{
    size_t k;
    for (k = 0; k < rank; k++) dims[k] = choice[tt_rand_below(nchoice)];
    while (prod(dims, rank) > cap) {
        size_t big = 0;
        for (k = 1; k < rank; k++)
            if (dims[k] > dims[big]) big = k;
        dims[big] = (dims[big] + 1) / 2;
    }
}

/* Outer extents of `ext` with small random padding; mode bit 0: the source's, bit 1: the
   destination's. The padded allocation stays under `cap` elements. */
static void random_outer(pcase *c, int mode, size_t cap)
{
    static const size_t pads[] = {0, 0, 0, 1, 2, 3, 7, 17};
    size_t dd[MAXR] = {0}, k, try_;
    for (k = 0; k < c->rank; k++) dd[k] = c->dims[c->perm[k]];
    c->has_src_outer = mode & 1;
    c->has_dst_outer = (mode >> 1) & 1;
    for (try_ = 0; try_ < 3; try_++) {
        for (k = 0; k < c->rank; k++) {
            const size_t ps = try_ == 0 ? pads[tt_rand_below(8)] : try_ == 1 ? tt_rand_below(2) : 0;
            const size_t pd = try_ == 0 ? pads[tt_rand_below(8)] : try_ == 1 ? tt_rand_below(2) : 0;
            c->src_outer[k] = c->dims[k] + ps;
            c->dst_outer[k] = dd[k] + pd;
        }
        if ((!c->has_src_outer || prod(c->src_outer, c->rank) <= cap) &&
            (!c->has_dst_outer || prod(c->dst_outer, c->rank) <= cap))
            break;
    }
}

static const size_t esizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 32};
#define N_ESIZES (sizeof esizes / sizeof *esizes)

/* Extents with 1s, small primes and both sides of the 8/16/32/64-element tile edges. */
static const size_t edge_dims[] = {1,  1,  2,  3,  5,  7,  8,  9,  11,  13,  15,
                                   16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
static const size_t small_dims[] = {1, 1, 2, 2, 3, 4, 5, 7, 8, 9, 16, 17};
static const size_t tiny_dims[] = {1, 1, 1, 2, 2, 2, 2, 3};

/* ---- the sets of cases ------------------------------------------------------------------- */

/* Every rank 0..6, random extents, permutation, element size and padding. */
static void random_ranks(void)
{
    size_t rank, i;
    for (rank = 0; rank <= 6; rank++)
        for (i = 0; i < (rank == 0 ? 40u : 150u); i++) {
            pcase c;
            const size_t cap = rank <= 2 ? 20000 : 6000;
            c.rank = rank;
            c.esize = esizes[tt_rand_below(N_ESIZES)];
            if (rank <= 3)
                random_dims(c.dims, rank, edge_dims, sizeof edge_dims / sizeof *edge_dims, cap);
            else
                random_dims(c.dims, rank, small_dims, sizeof small_dims / sizeof *small_dims, cap);
            random_perm(c.perm, rank);
            random_outer(&c, (int)(i % 4), 4 * cap);
            run_case(&c);
        }
}

/* The next permutation in lexicographic order; 0 after the last. */
static int next_perm(size_t *p, size_t n)
{
    size_t i, j, t;
    if (n < 2) return 0;
    i = n - 1;
    while (i > 0 && p[i - 1] >= p[i]) i--;
    if (i == 0) return 0;
    j = n - 1;
    while (p[j] <= p[i - 1]) j--;
    t = p[i - 1], p[i - 1] = p[j], p[j] = t;
    for (j = n - 1; i < j; i++, j--) t = p[i], p[i] = p[j], p[j] = t;
    return 1;
}

/* Every permutation of ranks 1..4 at every element size, random shapes and padding. */
static void every_permutation(void)
{
    size_t rank, e, k;
    for (rank = 1; rank <= 4; rank++) {
        size_t perm[MAXR];
        int more = 1;
        for (k = 0; k < rank; k++) perm[k] = k;
        while (more) {
            for (e = 0; e < N_ESIZES; e++) {
                pcase c;
                c.rank = rank;
                c.esize = esizes[e];
                memcpy(c.perm, perm, sizeof perm);
                random_dims(c.dims, rank, edge_dims, sizeof edge_dims / sizeof *edge_dims,
                            rank <= 2 ? 8192 : 3000);
                random_outer(&c, (int)(e % 4), 20000);
                run_case(&c);
            }
            more = next_perm(perm, rank);
        }
    }
}

/* Ranks 7..16, extents mostly 1 and 2. */
static void high_ranks(void)
{
    size_t rank, i, k;
    for (rank = 7; rank <= MAXR; rank++)
        for (i = 0; i < 12; i++) {
            pcase c;
            c.rank = rank;
            c.esize = esizes[tt_rand_below(N_ESIZES)];
            random_dims(c.dims, rank, tiny_dims, sizeof tiny_dims / sizeof *tiny_dims, 4096);
            random_perm(c.perm, rank);
            random_outer(&c, (int)(i % 4), 16384);
            if (i % 4 == 1) /* padding on a few axes only, as {0, 1} */
                for (k = 0; k < rank; k++) c.src_outer[k] = c.dims[k] + (k % 5 == 2);
            run_case(&c);
        }
    { /* 2^16 elements: the axes of 2 reversed, and rotated */
        pcase c;
        c.rank = MAXR;
        c.esize = 1;
        c.has_src_outer = c.has_dst_outer = 0;
        for (k = 0; k < MAXR; k++) c.dims[k] = 2, c.perm[k] = MAXR - 1 - k;
        run_case(&c);
        c.esize = 3;
        for (k = 0; k < MAXR; k++) c.perm[k] = (k + 5) % MAXR;
        run_case(&c);
    }
}

/* Rank 2: the shapes around the tile edges at every element size, with padded lds, compared
   with tpose_matrix too (run_case does when the axes are swapped). */
static void matrices(void)
{
    static const size_t sides[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129};
    const size_t ns = sizeof sides / sizeof *sides;
    size_t e, i;
    for (e = 0; e < N_ESIZES; e++)
        for (i = 0; i < 24; i++) {
            pcase c;
            c.rank = 2;
            c.esize = esizes[e];
            c.dims[0] = sides[tt_rand_below(ns)];
            c.dims[1] = sides[tt_rand_below(ns)];
            c.perm[0] = 1;
            c.perm[1] = 0;
            random_outer(&c, (int)(i % 4), 1u << 16);
            run_case(&c);
        }
}

/* Elements wider than 16 bytes once the kept fastest axis joins them (and wide esizes):
   moved one by one in blocks rather than through the matrix kernels; blocks of 16 or fewer
   elements a side, so the extents cross their edges. */
static void wide_elements(void)
{
    static const size_t elems[] = {64, 65, 96, 100, 128, 192, 300, 1000, 4104, 16384, 20000};
    static const size_t sides[] = {1, 2, 3, 15, 16, 17, 31, 33, 65};
    static const size_t wide_esizes[] = {1, 2, 4, 5, 8, 64, 100};
    static const size_t perms[][4] = {{1, 0, 2, 3}, {2, 1, 0, 3}, {0, 2, 1, 3}, {2, 0, 1, 3}};
    const size_t ns = sizeof sides / sizeof *sides;
    size_t i, j, k;
    for (i = 0; i < sizeof elems / sizeof *elems; i++)
        for (j = 0; j < 16; j++) {
            pcase c;
            size_t es = wide_esizes[tt_rand_below(sizeof wide_esizes / sizeof *wide_esizes)];
            const size_t *pm = perms[j % 4];
            while (elems[i] % es) es = 1;
            c.rank = j % 4 == 0 ? 3 : 4;
            c.esize = es;
            for (k = 0; k + 1 < c.rank; k++) c.dims[k] = sides[tt_rand_below(ns)];
            c.dims[c.rank - 1] = elems[i] / es;
            for (k = 0; k < c.rank; k++) c.perm[k] = k + 1 == c.rank ? k : pm[k];
            if (c.rank == 3) c.perm[0] = 1, c.perm[1] = 0;
            while (prod(c.dims, c.rank - 1) * elems[i] > (1u << 21)) {
                size_t big = 0;
                for (k = 1; k + 1 < c.rank; k++)
                    if (c.dims[k] > c.dims[big]) big = k;
                c.dims[big] = (c.dims[big] + 1) / 2;
            }
            random_outer(&c, (int)(j % 4), ((size_t)8 << 20) / es);
            run_case(&c);
        }
}

/* A case from a table row: outer sizes of 0 in the row mean dense (NULL). */
static void pcase_from(pcase *c, size_t rank, size_t esize, const size_t *dims,
                       const size_t *perm, const size_t *so, const size_t *dout)
{
    size_t k;
    c->rank = rank;
    c->esize = esize;
    c->has_src_outer = so[0] != 0;
    c->has_dst_outer = dout[0] != 0;
    for (k = 0; k < rank; k++) {
        c->dims[k] = dims[k];
        c->perm[k] = perm[k];
        c->src_outer[k] = so[k];
        c->dst_outer[k] = dout[k];
    }
}

/* Structures fusion must get right: axes of 1 (padded or not) between the others, the
   fastest axis kept with padding on either side, identity permutations (copies). */
static void structures(void)
{
    static const struct {
        size_t rank, esize, dims[6], perm[6], so[6], dout[6];
    } t[] = {
        {3, 4, {4, 1, 5}, {0, 1, 2}, {4, 3, 5}, {0}},
        {3, 4, {4, 1, 5}, {2, 1, 0}, {4, 3, 5}, {5, 2, 4}},
        {3, 2, {6, 1, 9}, {1, 0, 2}, {0}, {1, 6, 9}},
        {3, 2, {6, 1, 9}, {1, 0, 2}, {0}, {2, 6, 9}},
        {3, 2, {6, 1, 9}, {0, 1, 2}, {0}, {6, 3, 9}},
        {3, 2, {6, 1, 9}, {2, 1, 0}, {6, 4, 9}, {9, 1, 6}},
        {4, 8, {3, 4, 5, 6}, {0, 1, 2, 3}, {3, 4, 5, 7}, {0}},
        {4, 8, {3, 4, 5, 6}, {0, 1, 2, 3}, {0}, {3, 5, 5, 6}},
        {4, 1, {3, 4, 5, 6}, {1, 0, 2, 3}, {3, 4, 6, 6}, {0}},
        {4, 1, {3, 4, 5, 6}, {1, 0, 2, 3}, {0}, {4, 3, 5, 8}},
        {4, 4, {2, 12, 5, 8}, {0, 2, 1, 3}, {0}, {0}},
        {4, 4, {2, 12, 5, 8}, {0, 2, 1, 3}, {2, 12, 5, 9}, {2, 5, 12, 9}},
        {5, 2, {1, 7, 1, 9, 1}, {4, 3, 2, 1, 0}, {0}, {0}},
        {5, 2, {1, 7, 1, 9, 1}, {4, 3, 2, 1, 0}, {2, 7, 2, 9, 2}, {3, 9, 4, 7, 5}},
        {5, 3, {2, 3, 4, 5, 6}, {1, 2, 0, 3, 4}, {0}, {0}},
        {5, 3, {2, 3, 4, 5, 6}, {0, 1, 4, 2, 3}, {0}, {0}},
        {6, 1, {2, 3, 2, 3, 2, 3}, {1, 0, 3, 2, 5, 4}, {0}, {0}},
        {6, 5, {2, 3, 2, 3, 2, 3}, {5, 4, 3, 2, 1, 0}, {2, 3, 2, 3, 2, 4}, {0}},
        {2, 1, {1, 1}, {1, 0}, {3, 3}, {2, 2}},
        {1, 7, {33}, {0}, {40}, {35}},
        {2, 16, {1, 65}, {1, 0}, {0}, {0}},
        {2, 16, {65, 1}, {1, 0}, {0}, {0}},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        pcase c;
        pcase_from(&c, t[i].rank, t[i].esize, t[i].dims, t[i].perm, t[i].so, t[i].dout);
        run_case(&c);
    }
}

/* Several MiB of destination, so that AUTO's streaming kernels run (they are chosen from the
   whole destination's bytes, not one slice's). */
static void large_shapes(void)
{
    static const struct {
        size_t rank, esize, dims[4], perm[4], so[4], dout[4];
    } t[] = {
        {4, 4, {32, 64, 56, 56}, {0, 2, 3, 1}, {0}, {0}}, /* NCHW -> NHWC */
        {4, 4, {32, 56, 56, 64}, {0, 3, 1, 2}, {0}, {0}}, /* and back */
        {4, 4, {8, 512, 16, 64}, {0, 2, 1, 3}, {0}, {0}}, /* attention heads */
        {4, 8, {40, 3, 1000, 7}, {2, 0, 3, 1}, {0}, {0}},
        {4, 4, {4, 3, 1000, 7}, {2, 3, 0, 1}, {0}, {0}},
        {3, 1, {3, 2048, 2048}, {0, 2, 1}, {0}, {0}},
        {3, 2, {1024, 3, 2048}, {2, 1, 0}, {0}, {0}},
        {4, 8, {64, 64, 3, 129}, {3, 1, 2, 0}, {0}, {0}},
        {3, 3, {500, 7, 1200}, {2, 1, 0}, {0}, {0}},
        {3, 24, {100, 3, 2000}, {2, 0, 1}, {0}, {0}},
        {3, 4, {16, 130, 1030}, {0, 2, 1}, {16, 131, 1040}, {17, 1033, 133}},
        {3, 4, {64, 100, 300}, {1, 0, 2}, {0}, {100, 64, 301}}, /* runs of a kept axis */
        {2, 4, {1500, 1700}, {1, 0}, {1501, 1703}, {1700, 1531}},
        /* elements wider than 16 bytes (the kept axis joined): blocks of moves, streamed */
        {3, 1, {300, 300, 67}, {1, 0, 2}, {0}, {0}},
        {3, 4, {300, 400, 16}, {1, 0, 2}, {0}, {0}},
        {3, 5, {300, 320, 13}, {1, 0, 2}, {301, 320, 13}, {0}},
        {4, 100, {30, 7, 40, 60}, {2, 1, 0, 3}, {0}, {0}},
        {3, 4, {300, 250, 25}, {1, 0, 2}, {0}, {250, 300, 26}},   /* runs of 100 bytes */
        {3, 1, {2, 6000, 1000}, {0, 1, 2}, {2, 6000, 1003}, {0}}, /* padded copy: runs */
        {3, 4, {2000, 1000, 4}, {1, 0, 2}, {0}, {1000, 2000, 5}}, /* runs of 16 bytes */
        {3, 1, {1000, 2000, 3}, {0, 1, 2}, {0}, {0}},             /* one copy */
        /* streamed slices of whole line tiles: through the line tiles directly */
        {4, 4, {64, 32, 64, 32}, {0, 3, 2, 1}, {0}, {0}},
        {4, 2, {64, 32, 64, 32}, {0, 3, 2, 1}, {0}, {0}},
        {4, 8, {32, 16, 256, 16}, {0, 3, 2, 1}, {0}, {0}},
        {4, 1, {32, 64, 64, 64}, {0, 3, 2, 1}, {0}, {0}},
        {4, 4, {64, 48, 60, 32}, {0, 3, 2, 1}, {0}, {64, 32, 60, 49}}, /* 48 columns, padded */
        /* taller than a line tile, source rows apart: bands of line_edge rows */
        {4, 4, {48, 40, 25, 48}, {3, 2, 1, 0}, {0}, {0}},
        {4, 8, {32, 40, 25, 32}, {3, 2, 1, 0}, {0}, {33, 26, 41, 40}},
        {4, 2, {64, 20, 40, 64}, {3, 1, 2, 0}, {0}, {0}},
        {4, 2, {48, 60, 40, 48}, {3, 2, 1, 0}, {0}, {0}},   /* plain tiles: bands of 16 */
        {4, 2, {112, 40, 40, 32}, {3, 2, 1, 0}, {0}, {32, 40, 41, 114}},
        {4, 1, {128, 30, 30, 96}, {3, 2, 1, 0}, {0}, {0}},  /* bands of 64 bytes */
        /* narrow slices (48 columns) of 352 rows: bands of 32 rows through the tiles */
        {4, 2, {352, 60, 4, 48}, {3, 2, 1, 0}, {0}, {0}},
        {4, 1, {352, 60, 8, 48}, {3, 2, 1, 0}, {0}, {48, 8, 61, 352}},
        {2, 2, {100000, 48}, {1, 0}, {100000, 50}, {0}}, /* a matrix: its kernel, no bands */
        /* destination rows off lines: no line tiles, so no bands of narrow slices */
        {4, 2, {352, 60, 4, 48}, {3, 2, 1, 0}, {0}, {48, 4, 60, 353}},
        /* source rows adjacent (each slice one block): no bands */
        {4, 4, {40, 25, 48, 48}, {1, 0, 3, 2}, {0}, {0}},
        /* slices of 48 rows over the direct tiles' size, destination rows apart: still the
           tiles directly; a dense destination (NCHW -> NHWC, 48 channels): the tiles up to
           64 KiB at 1 byte, the matrix kernel above */
        {4, 1, {48, 28, 4, 352}, {3, 2, 1, 0}, {0}, {0}},
        {4, 2, {48, 28, 4, 352}, {3, 2, 1, 0}, {0}, {352, 5, 28, 48}},
        {4, 4, {48, 28, 4, 352}, {3, 2, 1, 0}, {0}, {0}},
        {4, 1, {32, 48, 28, 28}, {0, 2, 3, 1}, {0}, {0}},
        {4, 1, {3, 48, 56, 56}, {0, 2, 3, 1}, {0}, {0}},
        /* slices the tiles would cover more than 1.5 times over: tiles of half the edge, for
           1- and 2-byte elements; in bands where the tensor is big */
        {4, 1, {48, 60, 80, 48}, {3, 2, 1, 0}, {0}, {0}},
        {4, 1, {48, 5, 7, 48}, {3, 2, 1, 0}, {0}, {48, 7, 6, 49}},
        {4, 1, {112, 30, 30, 48}, {3, 2, 1, 0}, {113, 30, 30, 50}, {0}},
        {4, 2, {24, 100, 100, 24}, {3, 2, 1, 0}, {0}, {24, 101, 100, 25}},
        {4, 4, {12, 100, 100, 12}, {3, 2, 1, 0}, {0}, {0}},
        /* 1-byte slices of 16-64 KiB, source rows apart: the tiles directly, in bands */
        {4, 1, {20, 96, 12, 610}, {3, 0, 2, 1}, {0}, {0}},
        {4, 1, {20, 610, 12, 100}, {3, 0, 2, 1}, {0}, {101, 20, 13, 613}},
        /* bands whose destination pieces would leave 470 KB of lines open with the source's
           side innermost: the bands' loop (the destination's side) innermost instead */
        {4, 1, {96, 20, 12, 608}, {3, 2, 1, 0}, {0}, {0}},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        pcase c;
        pcase_from(&c, t[i].rank, t[i].esize, t[i].dims, t[i].perm, t[i].so, t[i].dout);
        /* both sides line-aligned, both half a line off, or the usual cycle */
        mis_override = i % 3 == 0 ? 0 : i % 3 == 1 ? 32 : -1;
        run_case(&c);
        mis_override = -1;
        if (i == 0 && strstr(tpose_kernel_name(tpose_kernel_auto(64, 3136 * 32, 4)), "stream"))
            TT_CHECK(strstr(last_describe, "stream") != NULL,
                     "NCHW -> NHWC, 25 MB: AUTO streams the matrix of these bytes, the plan "
                     "does not: %s",
                     last_describe);
        if (t[i].dims[1] == 32 && t[i].esize == 4 &&
            strstr(tpose_kernel_name(tpose_kernel_auto(32, 32 * 64 * 64, 4)), "stream"))
            TT_CHECK(strstr(last_describe, "line tiles") != NULL,
                     "32x32 float slices, streamed: the line tiles, not %s", last_describe);
        if (t[i].dims[0] == 96 && t[i].dims[3] == 608 && strstr(last_describe, "3 bands"))
            TT_CHECK(strstr(last_describe, "x3] outermost") != NULL,
                     "bands leaving many destination lines open: their loop innermost, not %s",
                     last_describe);
        if (t[i].dims[0] == 20 && t[i].dims[2] == 12 &&
            tpose_kernel_supported(TPOSE_KERNEL_AVX2, 1))
            TT_CHECK(strstr(last_describe, "direct") != NULL,
                     "1-byte slices of 16-64 KiB, source rows apart: the tiles directly, not %s",
                     last_describe);
        if (t[i].dims[0] == 48 && t[i].dims[3] == 48 && t[i].esize == 4 &&
            strstr(last_describe, "line tiles"))
            TT_CHECK(strstr(last_describe, " 48x48 slices in 3 bands of 16 rows, by 16x16") != NULL,
                     "48x48 float slices through the line tiles: bands of 16 rows, not %s",
                     last_describe);
        if (t[i].dims[0] == 48 && t[i].dims[3] == 48 && t[i].esize == 2 &&
            strstr(last_describe, "avx2 tiles") &&
            strstr(tpose_kernel_name(tpose_kernel_auto(48, 48 * 2400, 2)), "stream"))
            TT_CHECK(strstr(last_describe, " 48x48 slices in 3 bands of 16 rows, by 16x16") != NULL,
                     "48x48 2-byte slices of a big tensor: bands of 16 rows, not %s",
                     last_describe);
        if (t[i].rank == 2)
            TT_CHECK(strstr(last_describe, "matrix (two axes swapped)") != NULL &&
                         strstr(last_describe, "loops") == NULL,
                     "a permutation that fuses to a matrix: one matrix call, not %s",
                     last_describe);
        if (t[i].dims[0] == 352 && t[i].esize <= 2 && strstr(last_describe, "tiles, direct"))
            TT_CHECK(strstr(last_describe, " 352x48 slices in 11 bands of 32 rows, by 32x32") != NULL,
                     "352x48 slices of %zu-byte elements: bands of 32 rows, not %s", t[i].esize,
                     last_describe);
        if (t[i].dims[3] == 352 && strstr(tpose_kernel_name(tpose_kernel_auto(48, 352, 1)), "avx"))
            TT_CHECK(strstr(last_describe, " 48x352 slices") != NULL &&
                         strstr(last_describe, ", direct") != NULL,
                     "48x352 slices, destination rows apart: the tiles directly, not %s",
                     last_describe);
        if (t[i].dims[1] == 48 && t[i].dims[3] == t[i].dims[2] &&
            tpose_kernel_supported(TPOSE_KERNEL_AVX2, 1))
            TT_CHECK((strstr(last_describe, "direct") != NULL) == (t[i].dims[2] == 28),
                     "48-row slices of a dense destination: the tiles directly up to 64 KiB, "
                     "the matrix kernel above, not %s",
                     last_describe);

        if (t[i].esize <= 2 && t[i].dims[0] * t[i].esize <= 112 &&
            t[i].dims[3] * t[i].esize == 48 &&
            tpose_kernel_supported(TPOSE_KERNEL_AVX2, t[i].esize))
            TT_CHECK(strstr(last_describe, t[i].esize == 1 ? "by 16x16 sse2 tiles, direct"
                                                           : "by 8x8 sse2 tiles, direct"),
                     "%zux%zu slices of %zu-byte elements: half tiles, not %s", t[i].dims[0],
                     t[i].dims[3], t[i].esize, last_describe);
        if (t[i].dims[3] == 12 && t[i].esize == 4)
            TT_CHECK(strstr(last_describe, "sse2 tiles") == NULL,
                     "12x12 float slices: the kit's tiles, not %s", last_describe);
        if (t[i].dims[2] == 48 && t[i].esize == 4 && strstr(last_describe, "line tiles"))
            TT_CHECK(strstr(last_describe, " 48x48 slices by 16x16") != NULL,
                     "48x48 float slices of adjacent source rows: no bands, not %s",
                     last_describe);
    }
}

/* Slices of 16-64 KiB for the plain tiles whose source rows are adjacent (each slice one
   block of the source), and of 16-128 KiB for the line tiles: the tiles directly, each tile
   asking for the next slice's lines as it goes; every pointer offset of run_case's cycle,
   padded outer sizes on one. */
static void tiles_to_their_limits(void)
{
    static const struct {
        size_t rank, esize, dims[5], perm[5], so[5], dout[5];
    } t[] = {
        {5, 1, {2, 3, 4, 352, 48}, {2, 0, 4, 1, 3}, {0}, {0}}, /* 352x48 */
        {5, 2, {3, 2, 48, 4, 352}, {1, 3, 0, 4, 2}, {0}, {2, 5, 3, 353, 50}}, /* 48x352 */
        {4, 1, {3, 2, 96, 608}, {1, 0, 3, 2}, {0}, {0}}, /* 96x608, a dense destination */
        {4, 2, {20, 96, 20, 96}, {3, 0, 2, 1}, {0}, {0}}, /* 96x96, streamed: line tiles */
    };
    size_t i, m;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        for (m = 0; m < 3; m++) {
            pcase c;
            pcase_from(&c, t[i].rank, t[i].esize, t[i].dims, t[i].perm, t[i].so, t[i].dout);
            mis_override = m == 0 ? 0 : m == 1 ? 32 : -1;
            run_case(&c);
            mis_override = -1;
            if (tpose_kernel_supported(TPOSE_KERNEL_AVX2, t[i].esize))
                TT_CHECK(strstr(last_describe, "tiles, direct") != NULL,
                         "slices of 16-128 KiB: the tiles directly, not %s", last_describe);
            if (t[i].dims[3] == 96 &&
                strstr(tpose_kernel_name(tpose_kernel_auto(96, 96 * 20 * 20, 2)), "stream"))
                TT_CHECK(strstr(last_describe, "line tiles, direct") != NULL,
                         "2-byte 96x96 slices, streamed: the line tiles, not %s", last_describe);
        }
    }
}

/* Plans made under one kernel limit and applied under another (tpose_kernel_limit between
   them): a walk takes the kit's tiles only where the kit still has them at the plan's edge,
   else the matrix kernel; the bytes are the same. The 1- and 2-byte slices here, 1.5 tile
   edges a side, take the half tiles (SSE2) under AUTO and AVX2, none under SWAR. */
static void limit_after_plan(void)
{
    static const tpose_kernel limits[] = {TPOSE_KERNEL_AUTO, TPOSE_KERNEL_AVX2,
                                          TPOSE_KERNEL_SSE2, TPOSE_KERNEL_SWAR};
    const size_t nl = sizeof limits / sizeof *limits;
    size_t e, made, used;
    for (e = 1; e <= 4; e *= 2) {
        const size_t edge = 48 / e, perm[4] = {3, 2, 1, 0}, none[4] = {0, 0, 0, 0};
        const size_t dims[4] = {edge, 5, 7, edge}, bytes = edge * 35 * edge * e;
        unsigned char *src = (unsigned char *)tt_alloc(bytes);
        unsigned char *dst = (unsigned char *)tt_alloc(bytes);
        unsigned char *want = (unsigned char *)tt_alloc(bytes);
        unsigned char plan[2048];
        pcase c;
        pcase_from(&c, 4, e, dims, perm, none, none);
        tt_fill_random(src, bytes);
        oracle(want, src, &c);
        for (made = 0; made < nl; made++) {
            tpose_kernel_limit(limits[made]);
            TT_CHECK(tpose_permute_plan_init(plan, sizeof plan, NULL, NULL, 4, dims, perm, e) ==
                         TPOSE_OK,
                     "plan_init under limit %s", tpose_kernel_name(limits[made]));
            for (used = 0; used < nl; used++) {
                tpose_kernel_limit(limits[used]);
                memset(dst, 0, bytes);
                TT_CHECK(tpose_permute_plan_apply(plan, dst, src) == TPOSE_OK &&
                             memcmp(dst, want, bytes) == 0,
                         "%zux%zu slices of %zu-byte elements: a plan made under %s, applied "
                         "under %s, wrong bytes",
                         edge, edge, e, tpose_kernel_name(limits[made]),
                         tpose_kernel_name(limits[used]));
            }
        }
        tpose_kernel_limit(TPOSE_KERNEL_AUTO);
        free(src);
        free(dst);
        free(want);
    }
}

/* ---- status codes ------------------------------------------------------------------------ */

#define ARENA 8192
static unsigned char arena[ARENA], arena_snap[ARENA];
static unsigned char planmem[2048], plan_snap[2048];

enum { SHAPE, PTRS }; /* the error is the shape's (plan_init sees it) or the pointers' */

/* One call that must fail with `want`, through tpose_permute and through the plan (plan_init
   for a shape error, plan_apply for a pointer error), writing nothing anywhere. */
static void expect(tpose_status want, int kind, void *dst, const size_t *dst_outer, const void *src,
                   const size_t *src_outer, size_t rank, const size_t *dims, const size_t *perm,
                   size_t esize, const char *what)
{
    tpose_status got;
    memcpy(arena_snap, arena, ARENA);
    memset(planmem, TT_GUARD, sizeof planmem);
    memcpy(plan_snap, planmem, sizeof planmem);
    got = tpose_permute(dst, dst_outer, src, src_outer, rank, dims, perm, esize);
    TT_CHECK(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, tpose_status_str(got),
             (int)want, tpose_status_str(want));
    TT_CHECK(memcmp(arena, arena_snap, ARENA) == 0, "%s: memory changed", what);
    got = tpose_permute_plan_init(planmem + 3, sizeof planmem - 3, dst_outer, src_outer, rank, dims,
                                  perm, esize);
    if (kind == SHAPE) {
        TT_CHECK(got == want, "%s (plan_init): got %d (%s), want %d", what, (int)got,
                 tpose_status_str(got), (int)want);
        TT_CHECK(memcmp(planmem, plan_snap, sizeof planmem) == 0,
                 "%s (plan_init): plan written on error", what);
    } else {
        TT_CHECK(got == TPOSE_OK, "%s (plan_init): got %d (%s), want ok", what, (int)got,
                 tpose_status_str(got));
        got = tpose_permute_plan_apply(planmem + 3, dst, src);
        TT_CHECK(got == want, "%s (plan_apply): got %d (%s), want %d (%s)", what, (int)got,
                 tpose_status_str(got), (int)want, tpose_status_str(want));
        TT_CHECK(memcmp(arena, arena_snap, ARENA) == 0, "%s (plan_apply): memory changed", what);
    }
}

static void bad_arguments(void)
{
    unsigned char *src = arena, *dst = arena + 4096;
    const size_t huge = (size_t)-1;
    size_t dims2[2] = {4, 5}, swap[2] = {1, 0};
    size_t dims17[MAXR + 1], perm17[MAXR + 1], k;
    size_t perm3[3] = {0, 1, 2}, dims3[3] = {3, 4, 5};
    size_t outer[3];

    tt_fill_random(arena, ARENA);
    /* esize */
    expect(TPOSE_ERR_ESIZE, SHAPE, dst, NULL, src, NULL, 2, dims2, swap, 0, "esize 0");
    dims3[1] = 0;
    expect(TPOSE_ERR_ESIZE, SHAPE, NULL, NULL, NULL, NULL, 3, dims3, perm3, 0, "esize 0, empty");
    dims3[1] = 4;

    /* rank and permutation */
    for (k = 0; k <= MAXR; k++) dims17[k] = 1, perm17[k] = k;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, MAXR + 1, dims17, perm17, 1, "rank 17");
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, MAXR + 1, dims17, perm17, 4,
           "rank 17, esize 4");
    perm3[0] = 0, perm3[1] = 0, perm3[2] = 1;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, 3, dims3, perm3, 1, "perm repeats 0");
    perm3[0] = 2, perm3[1] = 1, perm3[2] = 2;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, 3, dims3, perm3, 4, "perm repeats 2");
    perm3[0] = 0, perm3[1] = 3, perm3[2] = 1;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, 3, dims3, perm3, 1, "perm value = rank");
    perm3[0] = 0, perm3[1] = 1, perm3[2] = 64;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, 3, dims3, perm3, 1, "perm value 64");
    perm3[0] = huge, perm3[1] = 1, perm3[2] = 0;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, 3, dims3, perm3, 1, "perm value SIZE_MAX");
    perm17[0] = MAXR; /* rank 16 with a 16 */
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, MAXR, dims17, perm17, 1,
           "rank 16, perm value 16");
    perm17[0] = 0;
    perm17[MAXR - 1] = 0;
    expect(TPOSE_ERR_ARG, SHAPE, dst, NULL, src, NULL, MAXR, dims17, perm17, 1, "rank 16, 0 twice");
    perm17[MAXR - 1] = MAXR - 1;

    /* outer extents: source axis k against dims[k], destination axis k against dims[perm[k]] */
    perm3[0] = 2, perm3[1] = 0, perm3[2] = 1; /* destination extents 5, 3, 4 */
    outer[0] = 3, outer[1] = 3, outer[2] = 5;
    expect(TPOSE_ERR_LD, SHAPE, dst, NULL, src, outer, 3, dims3, perm3, 1, "src_outer[1] < 4");
    outer[0] = 2, outer[1] = 4, outer[2] = 5;
    expect(TPOSE_ERR_LD, SHAPE, dst, NULL, src, outer, 3, dims3, perm3, 1, "src_outer[0] < 3");
    outer[0] = 3, outer[1] = 4, outer[2] = 4;
    expect(TPOSE_ERR_LD, SHAPE, dst, NULL, src, outer, 3, dims3, perm3, 2, "src_outer[2] < 5");
    outer[0] = 3, outer[1] = 4, outer[2] = 5; /* the source's extents: wrong for the dst */
    expect(TPOSE_ERR_LD, SHAPE, dst, outer, src, NULL, 3, dims3, perm3, 1,
           "dst_outer given in source order");
    outer[0] = 5, outer[1] = 3, outer[2] = 3;
    expect(TPOSE_ERR_LD, SHAPE, dst, outer, src, NULL, 3, dims3, perm3, 1, "dst_outer[2] < 4");
    outer[0] = 4, outer[1] = 3, outer[2] = 4;
    expect(TPOSE_ERR_LD, SHAPE, dst, outer, src, NULL, 3, dims3, perm3, 8, "dst_outer[0] < 5");

    /* NULL pointers */
    expect(TPOSE_ERR_NULL, PTRS, NULL, NULL, src, NULL, 2, dims2, swap, 1, "NULL dst");
    expect(TPOSE_ERR_NULL, PTRS, dst, NULL, NULL, NULL, 2, dims2, swap, 1, "NULL src");
    expect(TPOSE_ERR_NULL, PTRS, NULL, NULL, NULL, NULL, 2, dims2, swap, 4, "NULL both");
    expect(TPOSE_ERR_NULL, SHAPE, dst, NULL, src, NULL, 2, NULL, swap, 1, "NULL dims");
    expect(TPOSE_ERR_NULL, SHAPE, dst, NULL, src, NULL, 2, dims2, NULL, 1, "NULL perm");
    expect(TPOSE_ERR_NULL, PTRS, NULL, NULL, src, NULL, 0, NULL, NULL, 4, "rank 0, NULL dst");
    expect(TPOSE_ERR_NULL, PTRS, dst, NULL, NULL, NULL, 0, NULL, NULL, 4, "rank 0, NULL src");

    /* overflow, with real pointers so that the sizes are what fails */
    dims2[0] = huge / 2, dims2[1] = 3;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, NULL, 2, dims2, swap, 1,
           "extents' product overflows");
    dims2[0] = huge / 8, dims2[1] = 2;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, NULL, 2, dims2, swap, 8,
           "elements fit, bytes overflow");
    dims2[0] = 1, dims2[1] = 2;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, NULL, 2, dims2, swap, huge / 2 + 1,
           "esize times 2 overflows");
    dims3[0] = 2, dims3[1] = 2, dims3[2] = 2;
    perm3[0] = 2, perm3[1] = 1, perm3[2] = 0;
    outer[0] = 2, outer[1] = 2, outer[2] = huge / 2;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, outer, 3, dims3, perm3, 4,
           "src_outer's strides overflow");
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, outer, src, NULL, 3, dims3, perm3, 4,
           "dst_outer's strides overflow");
    outer[0] = 2, outer[1] = huge / 3, outer[2] = 2;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, outer, 3, dims3, perm3, 4,
           "src_outer's middle axis overflows the outer stride");
    /* strides fit, the span (last byte + 1) does not: 2 * (2 * (SIZE_MAX / 4)) + 2 + 2 */
    dims2[0] = 3, dims2[1] = 2;
    outer[0] = 3, outer[1] = huge / 4;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, NULL, src, outer, 2, dims2, swap, 2,
           "span overflows by one byte");
    swap[0] = 0, swap[1] = 1;
    outer[0] = 3, outer[1] = huge / 4;
    expect(TPOSE_ERR_OVERFLOW, SHAPE, dst, outer, src, NULL, 2, dims2, swap, 2,
           "dst span overflows by one byte");
    swap[0] = 1, swap[1] = 0;
    /* spans that fit size_t but run past the end of the address space */
    dims2[0] = 16, dims2[1] = 16;
    expect(TPOSE_ERR_OVERFLOW, PTRS, (void *)(uintptr_t)(UINTPTR_MAX - 100), NULL, src, NULL, 2,
           dims2, swap, 1, "dst runs past the address space");
    expect(TPOSE_ERR_OVERFLOW, PTRS, dst, NULL, (const void *)(uintptr_t)(UINTPTR_MAX - 254), NULL,
           2, dims2, swap, 1, "src runs past the address space by one byte");

    /* overlap: spans intersecting, in one buffer */
    dims2[0] = 8, dims2[1] = 8;
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 100, NULL, arena + 100, NULL, 2, dims2, swap, 1,
           "same buffer");
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 163, NULL, arena + 100, NULL, 2, dims2, swap, 1,
           "dst starts on the last source byte");
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 100, NULL, arena + 163, NULL, 2, dims2, swap, 1,
           "src starts on the last destination byte");
    dims3[0] = 3, dims3[1] = 2, dims3[2] = 2;
    perm3[0] = 1, perm3[1] = 2, perm3[2] = 0;
    outer[0] = 3, outer[1] = 2, outer[2] = 50; /* source rows 200 bytes apart, 8 used */
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 120, NULL, arena + 100, outer, 3, dims3, perm3, 4,
           "dst in a gap of the padded source");
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 100, outer, arena + 120, NULL, 3, dims3, perm3, 4,
           "src in a gap of the padded destination");
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 192, NULL, arena + 100, NULL, 3, dims3, perm3, 8,
           "overlap by half an element");
    expect(TPOSE_ERR_OVERLAP, PTRS, arena + 100, NULL, arena + 192, NULL, 3, dims3, perm3, 8,
           "overlap by half an element, the other way");

    /* touching but disjoint: fine, both orders */
    {
        size_t d8[2] = {8, 8};
        size_t p8[2] = {1, 0};
        unsigned char *a = arena + 1000;
        TT_CHECK(tpose_permute(a + 64, NULL, a, NULL, 2, d8, p8, 1) == TPOSE_OK,
                 "dst right after src");
        TT_CHECK(tpose_permute(a, NULL, a + 64, NULL, 2, d8, p8, 1) == TPOSE_OK,
                 "dst right before src");
    }
}

/* Extents of 0: a no-op, NULL pointers allowed, for both entry points. */
static void empty_tensors(void)
{
    size_t dims[4] = {3, 0, 5, 2}, perm[4] = {3, 1, 0, 2}, k;
    unsigned char plan[4096];
    tpose_status st;
    memcpy(arena_snap, arena, ARENA);
    for (k = 0; k < 4; k++) {
        size_t d[4];
        memcpy(d, dims, sizeof d);
        d[1] = 3;
        d[k] = 0;
        st = tpose_permute(NULL, NULL, NULL, NULL, 4, d, perm, 4);
        TT_CHECK(st == TPOSE_OK, "extent 0 on axis %zu, NULL pointers: %s", k,
                 tpose_status_str(st));
        st = tpose_permute(arena + 100, NULL, arena + 2000, NULL, 4, d, perm, 1);
        TT_CHECK(st == TPOSE_OK, "extent 0 on axis %zu: %s", k, tpose_status_str(st));
        st = tpose_permute(arena, NULL, arena, NULL, 4, d, perm, 16);
        TT_CHECK(st == TPOSE_OK, "extent 0 on axis %zu, one pointer: %s", k, tpose_status_str(st));
        TT_CHECK(tpose_permute_plan_bytes(4) <= sizeof plan, "plan bytes");
        st = tpose_permute_plan_init(plan, sizeof plan, NULL, NULL, 4, d, perm, 2);
        TT_CHECK(st == TPOSE_OK, "plan of extent 0 on axis %zu: %s", k, tpose_status_str(st));
        st = tpose_permute_plan_apply(plan, NULL, NULL);
        TT_CHECK(st == TPOSE_OK, "empty plan, NULL pointers: %s", tpose_status_str(st));
        st = tpose_permute_plan_apply(plan, arena, arena);
        TT_CHECK(st == TPOSE_OK, "empty plan, one pointer: %s", tpose_status_str(st));
        TT_CHECK(tpose_permute_plan_cost(plan) > 0.0 && tpose_permute_plan_cost(plan) <= DBL_MAX,
                 "empty plan's cost");
        TT_CHECK(tpose_permute_plan_describe(plan, NULL, 0) > 0, "empty plan's description");
    }
    TT_CHECK(memcmp(arena, arena_snap, ARENA) == 0, "an empty tensor wrote memory");
}

/* Rank 0: one element copied, dims and perm unused (NULL allowed). */
static void rank_zero(void)
{
    unsigned char src[24], dst[24 + 2 * TT_PAD], want[sizeof dst];
    unsigned char plan[4096];
    size_t e;
    for (e = 1; e <= 24; e++) {
        tpose_status st;
        tt_fill_random(src, sizeof src);
        memset(want, TT_GUARD, sizeof want);
        memcpy(want + TT_PAD, src, e);
        memset(dst, TT_GUARD, sizeof dst);
        st = tpose_permute(dst + TT_PAD, NULL, src, NULL, 0, NULL, NULL, e);
        TT_CHECK(st == TPOSE_OK && memcmp(dst, want, sizeof dst) == 0,
                 "rank 0, esize %zu, NULL dims and perm: %s", e, tpose_status_str(st));
        memset(dst, TT_GUARD, sizeof dst);
        st = tpose_permute_plan_init(plan, tpose_permute_plan_bytes(0), NULL, NULL, 0, NULL, NULL,
                                     e);
        TT_CHECK(st == TPOSE_OK, "rank 0 plan: %s", tpose_status_str(st));
        st = tpose_permute_plan_apply(plan, dst + TT_PAD, src);
        TT_CHECK(st == TPOSE_OK && memcmp(dst, want, sizeof dst) == 0, "rank 0 plan, esize %zu: %s",
                 e, tpose_status_str(st));
    }
}

/* ---- plans ------------------------------------------------------------------------------ */

static void plan_sizes_and_garbage(void)
{
    size_t dims[3] = {5, 6, 7}, perm[3] = {2, 0, 1}, r, pb;
    static unsigned char mem[4096];
    unsigned char *dst = arena + 4096, *src = arena;
    tpose_status st;
    int g;
    for (r = 0; r <= MAXR; r++)
        TT_CHECK(tpose_permute_plan_bytes(r) > 0 && tpose_permute_plan_bytes(r) <= sizeof mem,
                 "plan_bytes(%zu) = %zu", r, tpose_permute_plan_bytes(r));
    TT_CHECK(tpose_permute_plan_bytes(MAXR + 1) == 0, "plan_bytes(17) = %zu",
             tpose_permute_plan_bytes(MAXR + 1));
    TT_CHECK(tpose_permute_plan_bytes((size_t)-1) == 0, "plan_bytes(SIZE_MAX)");
    pb = tpose_permute_plan_bytes(3);

    /* too short a plan: WORKSPACE, nothing written */
    memset(mem, TT_GUARD, sizeof mem);
    st = tpose_permute_plan_init(mem + 1, pb - 1, NULL, NULL, 3, dims, perm, 4);
    TT_CHECK(st == TPOSE_ERR_WORKSPACE, "plan_bytes - 1: %s", tpose_status_str(st));
    st = tpose_permute_plan_init(mem + 1, 0, NULL, NULL, 3, dims, perm, 4);
    TT_CHECK(st == TPOSE_ERR_WORKSPACE, "plan_bytes 0: %s", tpose_status_str(st));
    for (r = 0; r < sizeof mem; r++)
        if (mem[r] != TT_GUARD) break;
    TT_CHECK(r == sizeof mem, "a short plan was written (byte %zu)", r);
    st = tpose_permute_plan_init(NULL, pb, NULL, NULL, 3, dims, perm, 4);
    TT_CHECK(st == TPOSE_ERR_NULL, "plan NULL: %s", tpose_status_str(st));
    st = tpose_permute_plan_init(mem + 1, pb, NULL, NULL, 3, dims, perm, 4);
    TT_CHECK(st == TPOSE_OK, "plan_bytes exactly: %s", tpose_status_str(st));
    for (r = 1 + pb; r < sizeof mem; r++)
        if (mem[r] != TT_GUARD) break;
    TT_CHECK(r == sizeof mem && mem[0] == TT_GUARD, "plan written outside plan_bytes");

    /* applying what is not a plan: ARG (NULL: NULL), destination untouched */
    memcpy(arena_snap, arena, ARENA);
    st = tpose_permute_plan_apply(NULL, dst, src);
    TT_CHECK(st == TPOSE_ERR_NULL, "apply NULL plan: %s", tpose_status_str(st));
    for (g = 0; g < 4; g++) {
        double cost;
        char text[128];
        int n;
        if (g == 0)
            memset(mem, 0, sizeof mem);
        else if (g == 1)
            memset(mem, TT_GUARD, sizeof mem);
        else if (g == 2)
            tt_fill_random(mem, sizeof mem);
        else
            memset(mem, 0xFF, sizeof mem);
        st = tpose_permute_plan_apply(mem + 1, dst, src);
        TT_CHECK(st == TPOSE_ERR_ARG, "garbage plan %d: %s", g, tpose_status_str(st));
        cost = tpose_permute_plan_cost(mem + 1);
        TT_CHECK(cost > 0.0 && cost <= DBL_MAX, "garbage plan %d: cost %g", g, cost);
        n = tpose_permute_plan_describe(mem + 1, text, sizeof text);
        TT_CHECK(n >= 0 &&
                     strlen(text) == (size_t)(n < (int)sizeof text ? n : (int)sizeof text - 1),
                 "garbage plan %d: describe %d", g, n);
    }
    TT_CHECK(memcmp(arena, arena_snap, ARENA) == 0, "a garbage plan wrote memory");
    TT_CHECK(tpose_permute_plan_cost(NULL) > 0.0, "cost of NULL");
}

/* describe: snprintf's contract on every buffer size around the needed length. */
static void describe_truncation(void)
{
    static const struct {
        size_t rank, esize, dims[4], perm[4];
    } t[] = {
        {4, 4, {2, 16, 7, 9}, {0, 2, 3, 1}},
        {4, 2, {2, 12, 5, 8}, {0, 2, 1, 3}},
        {2, 1, {100, 3}, {1, 0}},
        {3, 8, {4, 5, 6}, {0, 1, 2}},
        {0, 8, {0}, {0}},
    };
    unsigned char mem[4096];
    size_t i, k;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        char full[1024], buf[1100];
        int n, m;
        tpose_status st =
            tpose_permute_plan_init(mem + 5, tpose_permute_plan_bytes(t[i].rank), NULL, NULL,
                                    t[i].rank, t[i].dims, t[i].perm, t[i].esize);
        TT_CHECK(st == TPOSE_OK, "describe case %zu: %s", i, tpose_status_str(st));
        n = tpose_permute_plan_describe(mem + 5, NULL, 0);
        TT_CHECK(n > 0 && n < (int)sizeof full, "describe(NULL, 0) = %d", n);
        if (n <= 0 || n >= (int)sizeof full) continue;
        m = tpose_permute_plan_describe(mem + 5, full, sizeof full);
        TT_CHECK(m == n && strlen(full) == (size_t)n, "describe: %d, then %d, strlen %zu", n, m,
                 strlen(full));
        for (k = 0; k < (size_t)n + 3; k++) {
            size_t j, kept;
            memset(buf, TT_GUARD, sizeof buf);
            m = tpose_permute_plan_describe(mem + 5, buf, k);
            TT_CHECK(m == n, "describe into %zu bytes returned %d, not %d", k, m, n);
            kept = k == 0 ? 0 : k - 1 < (size_t)n ? k - 1 : (size_t)n;
            if (k > 0)
                TT_CHECK(memcmp(buf, full, kept) == 0 && buf[kept] == 0,
                         "describe into %zu bytes: \"%.*s\" not a terminated prefix of \"%s\"", k,
                         (int)kept, buf, full);
            for (j = k == 0 ? 0 : kept + 1; j < sizeof buf; j++)
                if ((unsigned char)buf[j] != TT_GUARD) break;
            TT_CHECK(j == sizeof buf, "describe into %zu bytes wrote byte %zu", k, j);
        }
    }
}

#ifdef TT_PERMUTE_THREADS
/* One plan, four threads applying it at once to their own destinations. */
typedef struct job {
    const void *plan;
    void *dst;
    const void *src;
    tpose_status st;
} job;

static void *apply_thread(void *arg)
{
    job *j = (job *)arg;
    int r;
    for (r = 0; r < 4; r++) j->st = tpose_permute_plan_apply(j->plan, j->dst, j->src);
    return NULL;
}

static void threads(void)
{
    pcase c;
    const size_t dims[4] = {4, 48, 30, 30}, perm[4] = {0, 2, 3, 1};
    size_t n, bytes, t;
    unsigned char *src, *want, *plan, *dst[4];
    pthread_t th[4];
    job jobs[4];
    int started[4];
    c.rank = 4;
    c.esize = 4;
    c.has_src_outer = c.has_dst_outer = 0;
    memcpy(c.dims, dims, sizeof dims);
    memcpy(c.perm, perm, sizeof perm);
    n = prod(c.dims, 4);
    bytes = n * 4;
    src = (unsigned char *)tt_alloc(bytes);
    want = (unsigned char *)tt_alloc(bytes);
    plan = (unsigned char *)tt_alloc(tpose_permute_plan_bytes(4) + 1);
    fill_fast(src, bytes);
    oracle(want, src, &c);
    TT_CHECK(tpose_permute_plan_init(plan + 1, tpose_permute_plan_bytes(4), NULL, NULL, 4, dims,
                                     perm, 4) == TPOSE_OK,
             "threads: plan_init");
    for (t = 0; t < 4; t++) {
        dst[t] = (unsigned char *)tt_alloc(bytes);
        memset(dst[t], TT_GUARD, bytes);
        jobs[t].plan = plan + 1;
        jobs[t].dst = dst[t];
        jobs[t].src = src;
        jobs[t].st = TPOSE_ERR_ARG;
        started[t] = pthread_create(&th[t], NULL, apply_thread, &jobs[t]) == 0;
        if (!started[t]) apply_thread(&jobs[t]); /* no thread to be had: here, then */
    }
    for (t = 0; t < 4; t++) {
        if (started[t]) pthread_join(th[t], NULL);
        TT_CHECK(jobs[t].st == TPOSE_OK && memcmp(dst[t], want, bytes) == 0, "thread %zu: %s", t,
                 tpose_status_str(jobs[t].st));
        free(dst[t]);
    }
    free(plan);
    free(want);
    free(src);
}
#endif

int main(void)
{
#ifdef TT_OPENMP_TEAMS /* the OpenMP build: every large case on a team */
    tpose_set_threads(0);
#endif
    bad_arguments();
    empty_tensors();
    rank_zero();
    plan_sizes_and_garbage();
    describe_truncation();
    structures();
    random_ranks();
    every_permutation();
    high_ranks();
    matrices();
    wide_elements();
    large_shapes();
    tiles_to_their_limits();
    limit_after_plan();
#ifdef TT_PERMUTE_THREADS
    threads();
#endif
    return tt_finish("test_permute");
}
