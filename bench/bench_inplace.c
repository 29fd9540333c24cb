/* bench_inplace.c - tpose-bench-inplace: in-place transposition against memcpy of the same
   bytes in the same process. For each shape and direction: median GB/s counting
   2 * rows * cols * esize bytes (read + written once, paper eq. 37), the ratio to memcpy's
   median over the same byte count, and the peak extra memory (the workspace, which the
   library never exceeds). Buffers are pre-faulted; every timed call works on the matrix
   the previous one left, alternating rows x cols and cols x rows.

   Usage: tpose-bench-inplace [reps] [shape-filter substring] */
#define _POSIX_C_SOURCE 199309L
#define TPOSE_IMPLEMENTATION
#include "transpose_inplace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *prefaulted(size_t bytes)
{
    unsigned char *p = (unsigned char *)malloc(bytes ? bytes : 1);
    size_t i;
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    for (i = 0; i < bytes; i++) p[i] = (unsigned char)(i * 131u + (i >> 12));
    return p;
}

static const char *path_name(size_t rows, size_t cols, size_t esize)
{
    static const char *const names[] = {"nothing", "square", "skinny", "gcd", "c2r/r2c"};
    tposei_ip_plan pl;
    if (!tposei_ip_choose(&pl, rows, cols, esize)) return "?";
    if (pl.path == TPOSEI_IP_CKG) return rows > cols ? "c2r" : "r2c";
    return names[pl.path];
}

typedef struct shape {
    size_t rows, cols, esize;
    double target;
} shape;

#define MAX_REPS 64

static void run_shape(const shape *s, int reps)
{
    const size_t bytes = s->rows * s->cols * s->esize;
    const size_t ws = tpose_inplace_workspace(s->rows, s->cols, s->esize);
    const size_t ws_back = tpose_inplace_workspace(s->cols, s->rows, s->esize);
    unsigned char *a = (unsigned char *)prefaulted(bytes), *b = (unsigned char *)prefaulted(bytes);
    unsigned char *work = (unsigned char *)prefaulted(ws > ws_back ? ws : ws_back);
    double tc[MAX_REPS], tf[MAX_REPS], tb[MAX_REPS], mc, f, bk;
    int r;
    for (r = 0; r < reps; r++) {
        double t0 = now_s();
        memcpy(b, a, bytes);
        tc[r] = now_s() - t0;
        t0 = now_s();
        if (tpose_inplace(a, s->rows, s->cols, s->esize, work, ws) != TPOSE_OK) exit(3);
        tf[r] = now_s() - t0;
        t0 = now_s();
        if (tpose_inplace(a, s->cols, s->rows, s->esize, work, ws_back) != TPOSE_OK) exit(3);
        tb[r] = now_s() - t0;
    }
    mc = median(tc, reps);
    f = median(tf, reps);
    bk = median(tb, reps);
    printf("%9zux%-8zu %2zu  %-7s %7.2f  %5.2f  %11zu   (target %.2f)  memcpy %6.2f GB/s\n",
           s->rows, s->cols, s->esize, path_name(s->rows, s->cols, s->esize),
           2e-9 * (double)bytes / f, mc / f, ws, s->target, 2e-9 * (double)bytes / mc);
    printf("%9zux%-8zu %2zu  %-7s %7.2f  %5.2f  %11zu   (target %.2f)\n", s->cols, s->rows,
           s->esize, path_name(s->cols, s->rows, s->esize), 2e-9 * (double)bytes / bk, mc / bk,
           ws_back, s->target);
    fflush(stdout);
    free(a);
    free(b);
    free(work);
}

int main(int argc, char **argv)
{
    static const shape shapes[] = {
        {8256, 8256, 4, 0.7},   {5824, 5824, 8, 0.7},    {3001, 7919, 8, 0.35},
        {10000, 3000, 4, 0.35}, {2000, 3000, 1, 0.35},   {1000000, 3, 4, 0.5},
        {1000000, 3, 8, 0.5},   {4000000, 8, 8, 0.5},
    };
    const int reps = argc > 1 ? atoi(argv[1]) : 5;
    const char *filter = argc > 2 ? argv[2] : "";
    size_t i;
    if (reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "reps must be 1..%d\n", MAX_REPS);
        return 2;
    }
    printf("in-place transpose, one thread, median of %d; GB/s = 2*rows*cols*esize / time;\n"
           "ratio = memcpy time of rows*cols*esize bytes / transpose time (same process)\n",
           reps);
    printf("%18s %3s  %-7s %7s  %5s  %11s\n", "shape", "es", "path", "GB/s", "ratio",
           "extra bytes");
    for (i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char name[64];
        snprintf(name, sizeof name, "%zux%zu/%zu", shapes[i].rows, shapes[i].cols,
                 shapes[i].esize);
        if (strstr(name, filter)) run_shape(&shapes[i], reps);
    }
    return 0;
}
