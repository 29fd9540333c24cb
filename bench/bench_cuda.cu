/* bench_cuda.cu - throughput of every CUDA scheme against cudaMemcpy device to device.

   Usage: bench_cuda [band [reps]]
   For element sizes 4 and 8 and square orders 8K, 16K, 24K and 32K: GB/s of each scheme,
   counting every byte once read and once written (2 n^2 esize per transposition, as for the
   copy), and the ratio to cudaMemcpy of the same bytes. band is the V1B / V1BF band width
   (0, the default: TPOSE_CUDA_BAND_DEFAULT). Times are the median of `reps` runs (default 5)
   after one warm-up, by CUDA events. Prints a Markdown table; exits 77 without a device. */
#include "transpose_cuda.cuh"

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

struct bench_case {
    const char *name;
    int inplace;
    tpose_cuda_scheme scheme;
};

static const bench_case cases[] = {
    {"oop plain", 0, TPOSE_CUDA_PLAIN}, {"oop v1bf", 0, TPOSE_CUDA_V1BF},
    {"ip plain", 1, TPOSE_CUDA_PLAIN},  {"ip v1", 1, TPOSE_CUDA_V1},
    {"ip v1r", 1, TPOSE_CUDA_V1R},      {"ip v1b", 1, TPOSE_CUDA_V1B},
};

/* Median milliseconds of reps runs of one case (case index -1: the copy). */
static double time_case(int which, void *a, void *b, size_t n, size_t esize, size_t band, int reps)
{
    std::vector<float> ms;
    cudaEvent_t start, stop;
    int r, failed = 0;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (r = -1; r < reps; ++r) {
        tpose_status st = TPOSE_OK;
        float t = 0;
        cudaEventRecord(start, 0);
        if (which < 0) {
            cudaMemcpyAsync(b, a, n * n * esize, cudaMemcpyDeviceToDevice, 0);
        } else if (cases[which].inplace) {
            st = tpose_cuda_inplace_square_with(cases[which].scheme, band, a, n, n, esize, 0, NULL);
        } else {
            st =
                tpose_cuda_matrix_with(cases[which].scheme, band, b, n, a, n, n, n, esize, 0, NULL);
        }
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&t, start, stop);
        if (st != TPOSE_OK || cudaGetLastError() != cudaSuccess) failed = 1;
        if (r >= 0) ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (failed) return -1.0;
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static void bench_order(size_t n, size_t esize, size_t band, int reps)
{
    const size_t bytes = n * n * esize;
    const size_t ncases = sizeof cases / sizeof cases[0];
    void *a = NULL, *b = NULL;
    double copy_ms, gbs_copy;
    size_t c;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
        printf("| %zu | %zu | (not enough device memory) | | |\n", n, esize);
        cudaFree(a);
        cudaGetLastError();
        return;
    }
    cudaMemset(a, 1, bytes);
    cudaMemset(b, 2, bytes);
    copy_ms = time_case(-1, a, b, n, esize, band, reps);
    gbs_copy = 2.0 * (double)bytes / (copy_ms * 1e6);
    printf("| %zu | %zu | cudaMemcpy D2D | %.1f | 1.00 |\n", n, esize, gbs_copy);
    for (c = 0; c < ncases; ++c) {
        double ms = time_case((int)c, a, b, n, esize, band, reps);
        double gbs = 2.0 * (double)bytes / (ms * 1e6);
        if (ms < 0) {
            printf("| %zu | %zu | %s | failed | |\n", n, esize, cases[c].name);
        } else {
            printf("| %zu | %zu | %s | %.1f | %.2f |\n", n, esize, cases[c].name, gbs,
                   gbs / gbs_copy);
        }
    }
    cudaFree(a);
    cudaFree(b);
}

int main(int argc, char **argv)
{
    static const size_t orders[] = {8192, 16384, 24576, 32768};
    static const size_t esizes[] = {4, 8};
    size_t band = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 0;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int devices = 0;
    cudaDeviceProp prop;
    size_t i, e;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("bench_cuda: no CUDA device\n");
        return 77;
    }
    if (reps < 1) reps = 1;
    cudaGetDeviceProperties(&prop, 0);
    printf("%s, band %zu (0 = default %d), median of %d\n\n", prop.name, band,
           TPOSE_CUDA_BAND_DEFAULT, reps);
    printf("| n | esize | scheme | GB/s | ratio to copy |\n|---|---|---|---|---|\n");
    for (e = 0; e < sizeof esizes / sizeof esizes[0]; ++e)
        for (i = 0; i < sizeof orders / sizeof orders[0]; ++i)
            bench_order(orders[i], esizes[e], band, reps);
    return 0;
}
