/* test_panel.c - the panel cursor (transpose.h's walks, tposei_panel_step) with its
   prefetches recorded instead of issued: with the bursts ended on 4 KiB pages (geometry flag
   pf_pages, tune: pf_pages) it must fetch exactly the lines it fetches without, in the same
   order, at most a page's lines ahead of the tiles' count and never behind it, and (sources
   on cache lines) start each burst on a page the burst before did not end on. */
#include <stddef.h>

static const void **tp_log;
static size_t tp_len, tp_cap;

static inline void tp_record(const void *p)
{
    if (tp_len < tp_cap) tp_log[tp_len] = p;
    tp_len++;
}

#define TPOSEI_PREFETCH_L2(p) tp_record((const void *)(p))
#define TPOSE_IMPLEMENTATION
#include "transpose.h"
#include "tpose_test.h"

typedef struct walk_log {
    const void **addr; /* every prefetch, in order */
    size_t *ends;      /* prefetches recorded after the start and after each step */
    size_t len;
} walk_log;

/* The cursor as a walk of `steps` tiles of 64x64 bytes drives it, in panels of `pcols`
   source bytes by 64 rows; every third step instead the lines of an edge strip (1-100, from
   `seed`), as tposei_simd_edges moves it, some fewer than the lines a burst ran ahead. */
static walk_log run_cursor(const tposei_job *job, size_t pcols, size_t first, int pages,
                           size_t steps, uint64_t seed)
{
    walk_log w;
    tposei_geom g;
    tposei_pf pf;
    size_t k;
    tposei_geom_of(&g, 1, 64, TPOSEI_GEOM_DIRECT, NULL, tposei_tune_get());
    g.band = 64;
    g.bcols = pcols;
    g.pf_first = first;
    g.pf_pages = pages;
    tp_cap = (job->rows + 1) * (job->cols / 64 + 2 * (job->cols / pcols) + 4) + 4096;
    tp_log = (const void **)tt_alloc(tp_cap * sizeof *tp_log);
    tp_len = 0;
    w.ends = (size_t *)tt_alloc((steps + 1) * sizeof *w.ends);
    tposei_pf_start(&pf, job, &g);
    w.ends[0] = tp_len;
    for (k = 1; k <= steps; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if (k % 3 == 0)
            tposei_panel_step(&pf.panel, job, &g, 1 + (size_t)(seed >> 33) % 100);
        else
            tposei_pf_step(&pf, job, &g);
        w.ends[k] = tp_len;
    }
    TT_CHECK(tp_len <= tp_cap, "log overflow: %zu > %zu", tp_len, tp_cap);
    w.addr = tp_log;
    w.len = tp_len < tp_cap ? tp_len : tp_cap;
    return w;
}

static uintptr_t page_of(const void *p) { return (uintptr_t)p >> 12; }

static void check_shape(size_t rows, size_t cols, size_t stride, size_t off, size_t pcols,
                        size_t first)
{
    unsigned char *src = (unsigned char *)tt_alloc(rows * stride + off + 64);
    unsigned char *base = src + (64 - (uintptr_t)src % 64) % 64 + off;
    const tposei_job job = {NULL, base, cols, stride, rows, cols, 1};
    /* enough steps for the cursor to run off the end of the matrix */
    const size_t steps = ((rows + 63) / 64) * ((cols + 63) / 64) * 2 + 8;
    const int on_lines = (uintptr_t)base % 64 == 0 && stride % 64 == 0 && cols % 64 == 0;
    const size_t slack = on_lines ? TPOSEI_PAGE_LINES - 1 : 2 * (TPOSEI_PAGE_LINES - 1);
    const uint64_t seed = tt_rand();
    walk_log plain = run_cursor(&job, pcols, first, 0, steps, seed);
    walk_log paged = run_cursor(&job, pcols, first, 1, steps, seed);
    size_t i, k, bad_order = 0, bad_pace = 0, bad_page = 0;
    TT_CHECK(plain.len == paged.len, "%zux%zu stride %zu off %zu: %zu prefetches, %zu paged",
             rows, cols, stride, off, plain.len, paged.len);
    for (i = 0; i < plain.len && i < paged.len; i++) bad_order += plain.addr[i] != paged.addr[i];
    TT_CHECK(bad_order == 0, "%zux%zu stride %zu off %zu: %zu addresses differ", rows, cols,
             stride, off, bad_order);
    for (k = 0; k <= steps; k++)
        bad_pace += paged.ends[k] < plain.ends[k] || paged.ends[k] - plain.ends[k] > slack;
    TT_CHECK(bad_pace == 0, "%zux%zu stride %zu off %zu: %zu steps out of pace", rows, cols,
             stride, off, bad_pace);
    for (k = 1; on_lines && k <= steps; k++) {
        const size_t a = paged.ends[k - 1], b = paged.ends[k];
        if (a > 0 && b > a && b < paged.len)
            bad_page += page_of(paged.addr[a - 1]) == page_of(paged.addr[a]);
    }
    TT_CHECK(bad_page == 0, "%zux%zu stride %zu off %zu: %zu bursts split a page", rows, cols,
             stride, off, bad_page);
    free(plain.addr);
    free(plain.ends);
    free(paged.addr);
    free(paged.ends);
    free(src);
}

int main(void)
{
    static const size_t strides[] = {0, 64, 128, 1, 37}; /* source stride - cols */
    size_t i, j;
    /* dense, padded and offset bands of whole rows (one panel a band) */
    for (i = 0; i < sizeof strides / sizeof *strides; i++)
        for (j = 0; j < 4; j++) {
            const size_t cols = 1920 + 64 * j;
            check_shape(256, cols, cols + strides[i], 0, 4096, 0);
            check_shape(256, cols, cols + strides[i], 2048, 4096, 0);
            check_shape(200, cols + 17, cols + 17 + strides[i], 5, 4096, 128 << 10);
        }
    /* rows longer than a panel, panels across a band; short rows, many to a page */
    check_shape(130, 16448, 16448, 0, 4096, 128 << 10);
    check_shape(100, 9000, 9100, 64, 4096, 0);
    check_shape(300, 100, 100, 0, 4096, 0);
    check_shape(333, 64, 192, 0, 512, 0);
    for (i = 0; i < 200; i++) {
        const size_t rows = 1 + tt_rand_below(400), cols = 1 + tt_rand_below(6000);
        check_shape(rows, cols, cols + tt_rand_below(300), tt_rand_below(4096),
                    (size_t)64 << tt_rand_below(8), tt_rand_below(2) ? 0 : 8192);
    }
    return tt_finish("test_panel");
}
