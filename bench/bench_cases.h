/* bench_cases.h - the tensor cases of the benchmarks: the TTC file (bench/ttc-bench.txt,
   "rank | dims | perm" lines) and the ML shapes added after them. */
#ifndef TPOSE_BENCH_CASES_H
#define TPOSE_BENCH_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transpose_tensor.h"

#ifndef TB_CASES_FILE
#define TB_CASES_FILE "bench/ttc-bench.txt"
#endif
#define TB_MAX_CASES 128

typedef struct tcase {
    size_t rank, dims[TPOSE_MAX_RANK], perm[TPOSE_MAX_RANK];
    const char *tag; /* "ttc" or the name of an extra case */
} tcase;

/* Cases of the file: "rank | dims | perm" lines, '#' comments. */
static inline size_t read_cases(const char *path, tcase *out, size_t max)
{
    char line[512];
    size_t n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open the cases file %s (-f FILE)\n", path);
        exit(2);
    }
    while (n < max && fgets(line, sizeof line, f)) {
        char *p = line, *end;
        size_t k;
        tcase *c = &out[n];
        if (*p == '#' || *p == '\n') continue;
        c->rank = strtoul(p, &end, 10);
        if (end == p || c->rank > TPOSE_MAX_RANK) continue;
        p = strchr(end, '|');
        for (k = 0; p && k < c->rank; k++) c->dims[k] = strtoul(p + 1, &p, 10);
        p = p ? strchr(p, '|') : NULL;
        for (k = 0; p && k < c->rank; k++) c->perm[k] = strtoul(p + 1, &p, 10);
        if (!p) continue;
        c->tag = "ttc";
        n++;
    }
    fclose(f);
    return n;
}

static inline size_t add_extra(tcase *out, size_t n, const char *tag, size_t rank, const size_t *dims,
                        const size_t *perm)
{
    size_t k;
    out[n].rank = rank;
    out[n].tag = tag;
    for (k = 0; k < rank; k++) {
        out[n].dims[k] = dims[k];
        out[n].perm[k] = perm[k];
    }
    return n + 1;
}

static inline size_t add_extras(tcase *out, size_t n)
{
    static const size_t nchw[] = {32, 64, 56, 56}, nhwc[] = {32, 56, 56, 64},
                        to_nhwc[] = {0, 2, 3, 1}, to_nchw[] = {0, 3, 1, 2};
    static const size_t heads[] = {8, 512, 16, 64}, swap12[] = {0, 2, 1, 3};
    n = add_extra(out, n, "nchw>nhwc", 4, nchw, to_nhwc);
    n = add_extra(out, n, "nhwc>nchw", 4, nhwc, to_nchw);
    n = add_extra(out, n, "heads", 4, heads, swap12);
    return n;
}

#endif
