/* test_cuda.cu - transpose_cuda.cuh against the byte-by-byte reference.

   Host part (runs everywhere nvcc does):
   - argument checks of every API function, in the documented order, without a launch;
   - the device square root (FP64 estimate + correction) against the integer one;
   - every scheme's block jobs replayed on the host for all orders 0..300 and some larger
     ones (in place) and many shapes (out of place): the result must be the transpose and
     every element must be written exactly once, nothing outside the matrix.
   Device part (exit 77 when there is no CUDA device):
   - the index math evaluated on the device equals the host's;
   - every kernel x scheme x element size 1, 2, 4, 8, 16 x orders that are and are not
     multiples of 32, with ld > n, byte-exact against the reference, guard bytes around
     every buffer. */
#include "transpose_cuda.cuh"

#include "tpose_test.h"

#include <vector>

static const tpose_cuda_scheme ip_schemes[] = {TPOSE_CUDA_PLAIN, TPOSE_CUDA_V1, TPOSE_CUDA_V1R,
                                               TPOSE_CUDA_V1B};
static const size_t esizes[] = {1, 2, 4, 8, 16};

/* ------------------------------------------------------------------------------------------ */
/* Argument checks: no call below reaches a launch, so no device is needed. */

static void test_arguments(void)
{
    char *p = (char *)(uintptr_t)0x100000; /* never dereferenced: every call fails first */
    char *q = p + 0x100000;
    const size_t big = (size_t)1 << 62;
    cudaError_t e = cudaErrorUnknown;

    TT_CHECK(tpose_cuda_matrix_with((tpose_cuda_scheme)99, 0, q, 4, p, 4, 4, 4, 4, 0, &e) ==
                     TPOSE_ERR_ARG &&
                 e == cudaSuccess,
             "scheme outside the enum");
    TT_CHECK(tpose_cuda_matrix(q, 4, p, 4, 4, 4, 0, 0) == TPOSE_ERR_ESIZE, "esize 0");
    TT_CHECK(tpose_cuda_matrix(NULL, 0, NULL, 0, 0, 5, 4, 0) == TPOSE_OK, "no rows");
    TT_CHECK(tpose_cuda_matrix(NULL, 0, NULL, 0, 5, 0, 3, 0) == TPOSE_OK, "no cols");
    TT_CHECK(tpose_cuda_matrix(NULL, 4, p, 4, 4, 4, 4, 0) == TPOSE_ERR_NULL, "dst NULL");
    TT_CHECK(tpose_cuda_matrix(q, 4, NULL, 4, 4, 4, 4, 0) == TPOSE_ERR_NULL, "src NULL");
    TT_CHECK(tpose_cuda_matrix(q, 4, p, 3, 4, 4, 4, 0) == TPOSE_ERR_LD, "src_ld < cols");
    TT_CHECK(tpose_cuda_matrix(q, 3, p, 4, 4, 4, 4, 0) == TPOSE_ERR_LD, "dst_ld < rows");
    TT_CHECK(tpose_cuda_matrix(q, big, p, big, big, big, 4, 0) == TPOSE_ERR_OVERFLOW,
             "extent overflow");
    TT_CHECK(tpose_cuda_matrix(q, 4, p, (size_t)1 << 61, 4, 4, 8, 0) == TPOSE_ERR_OVERFLOW,
             "ld * esize overflow");
    TT_CHECK(tpose_cuda_matrix(p + 60, 4, p, 4, 4, 4, 4, 0) == TPOSE_ERR_OVERLAP, "overlap");
    TT_CHECK(tpose_cuda_matrix(p + 48, 4, p, 4, 4, 4, 3, 0) == TPOSE_ERR_UNSUPPORTED,
             "adjacent is no overlap (then esize 3 is the error)");
    TT_CHECK(tpose_cuda_matrix(q, 4, p, 4, 4, 4, 3, 0) == TPOSE_ERR_UNSUPPORTED, "esize 3");
    TT_CHECK(tpose_cuda_matrix(q, 4, p, 4, 4, 4, 32, 0) == TPOSE_ERR_UNSUPPORTED, "esize 32");
    TT_CHECK(tpose_cuda_matrix_with(TPOSE_CUDA_V1B, 0, q, 4, p, 4, 4, 4, 4, 0, NULL) ==
                 TPOSE_ERR_UNSUPPORTED,
             "in-place scheme out of place");
    TT_CHECK(tpose_cuda_matrix(q + 2, 4, p, 4, 4, 4, 4, 0) == TPOSE_ERR_ARG, "dst misaligned");
    TT_CHECK(tpose_cuda_matrix(q, 4, p + 8, 4, 4, 4, 16, 0) == TPOSE_ERR_ARG, "src misaligned");

    TT_CHECK(tpose_cuda_inplace_square_with((tpose_cuda_scheme)-1, 0, p, 4, 4, 4, 0, &e) ==
                 TPOSE_ERR_ARG,
             "scheme outside the enum");
    TT_CHECK(tpose_cuda_inplace_square(p, 4, 4, 0, TPOSE_CUDA_V1, 0) == TPOSE_ERR_ESIZE, "esize 0");
    TT_CHECK(tpose_cuda_inplace_square(NULL, 0, 0, 4, TPOSE_CUDA_V1, 0) == TPOSE_OK, "n 0");
    TT_CHECK(tpose_cuda_inplace_square(NULL, 4, 4, 4, TPOSE_CUDA_V1, 0) == TPOSE_ERR_NULL, "NULL");
    TT_CHECK(tpose_cuda_inplace_square(p, 4, 3, 4, TPOSE_CUDA_V1, 0) == TPOSE_ERR_LD, "ld < n");
    TT_CHECK(tpose_cuda_inplace_square(p, big, big, 4, TPOSE_CUDA_V1, 0) == TPOSE_ERR_OVERFLOW,
             "extent overflow");
    TT_CHECK(tpose_cuda_inplace_square(p, 4, 4, 5, TPOSE_CUDA_V1, 0) == TPOSE_ERR_UNSUPPORTED,
             "esize 5");
    TT_CHECK(tpose_cuda_inplace_square(p, 4, 4, 4, TPOSE_CUDA_V1BF, 0) == TPOSE_ERR_UNSUPPORTED,
             "out-of-place scheme in place");
    TT_CHECK(tpose_cuda_inplace_square(p + 4, 4, 4, 8, TPOSE_CUDA_V1, 0) == TPOSE_ERR_ARG,
             "misaligned");
    TT_CHECK(tpose_cuda_inplace_square(p, (size_t)3 << 22, (size_t)3 << 22, 1, TPOSE_CUDA_PLAIN,
                                       0) == TPOSE_ERR_UNSUPPORTED,
             "plain grid too large");
    TT_CHECK(strcmp(tpose_cuda_scheme_name(TPOSE_CUDA_V1BF), "v1bf") == 0 &&
                 strcmp(tpose_cuda_scheme_name((tpose_cuda_scheme)42), "unknown") == 0,
             "scheme names");
}

/* ------------------------------------------------------------------------------------------ */
/* The device square root, evaluated on the host: same IEEE double sqrt, same correction. */

static void test_isqrt_fp(void)
{
    uint64_t r;
    int i;
    for (r = 0; r < 100000; ++r) {
        TT_CHECK(tposei_isqrt64_fp(r) == tposei_isqrt64_newton(r), "v=%llu", (unsigned long long)r);
    }
    for (i = 0; i < 300000; ++i) {
        uint64_t s = tt_rand() >> (32 + tt_rand_below(32));
        uint64_t v[4] = {s * s, s * s - 1, s * s + s, tt_rand() >> tt_rand_below(64)};
        int j;
        if (s == 0) continue;
        for (j = 0; j < 4; ++j) {
            TT_CHECK(tposei_isqrt64_fp(v[j]) == tposei_isqrt64_newton(v[j]), "v=%llu",
                     (unsigned long long)v[j]);
        }
    }
    TT_CHECK(tposei_isqrt64_fp(UINT64_MAX) == 0xffffffffu, "v=max");
}

/* ------------------------------------------------------------------------------------------ */
/* Host replay of the jobs the kernels run: the kernels' own decode functions, a trivial tile
   move. hits counts writes per element. */

static void replay_job(uint32_t *a, size_t ld, unsigned char *hits, const tposei_cuda_job &j)
{
    std::vector<uint32_t> tp((size_t)j.h * j.w), tq((size_t)j.h * j.w);
    size_t y, x;
    if (j.kind == TPOSEI_CUDA_IDLE) return;
    for (y = 0; y < j.h; ++y)
        for (x = 0; x < j.w; ++x) tp[y * j.w + x] = a[(j.r0 + y) * ld + j.c0 + x];
    for (y = 0; y < j.w; ++y)
        for (x = 0; x < j.h; ++x) tq[y * j.h + x] = a[(j.c0 + y) * ld + j.r0 + x];
    if (j.kind == TPOSEI_CUDA_DIAG) {
        for (y = 0; y < j.h; ++y)
            for (x = 0; x < j.h; ++x) {
                a[(j.r0 + y) * ld + j.r0 + x] = tp[x * j.w + y];
                hits[(j.r0 + y) * ld + j.r0 + x]++;
            }
        return;
    }
    for (y = 0; y < j.h; ++y)
        for (x = 0; x < j.w; ++x) {
            a[(j.r0 + y) * ld + j.c0 + x] = tq[x * j.h + y];
            hits[(j.r0 + y) * ld + j.c0 + x]++;
        }
    for (y = 0; y < j.w; ++y)
        for (x = 0; x < j.h; ++x) {
            a[(j.c0 + y) * ld + j.r0 + x] = tp[x * j.w + y];
            hits[(j.c0 + y) * ld + j.r0 + x]++;
        }
}

/* Every job of one in-place launch, in flat block order; then check transpose and hits. */
static void replay_square(size_t n, size_t ld, tpose_cuda_scheme scheme, size_t band)
{
    tposei_cuda_sq p;
    std::vector<uint32_t> a(ld * n + 1);
    std::vector<unsigned char> hits(ld * n + 1);
    size_t r, c, bad = 0;
    uint64_t k, blocks;
    dim3 grid;
    for (r = 0; r < a.size(); ++r) a[r] = (uint32_t)r;
    if (!tposei_cuda_sq_plan(&p, &a[0], n, ld, scheme, band)) {
        TT_CHECK(0, "plan n=%zu", n);
        return;
    }
    if (scheme == TPOSE_CUDA_PLAIN) {
        uint64_t nb = p.mb + (p.rem != 0), bx, by;
        for (by = 0; by < nb; ++by)
            for (bx = 0; bx < nb; ++bx)
                replay_job(&a[0], ld, &hits[0], tposei_cuda_job_plain(&p, bx, by));
    } else {
        tposei_cuda_flat_grid(p.work, &grid);
        blocks = (uint64_t)grid.x * grid.y * grid.z;
        TT_CHECK(blocks >= p.work && (blocks - p.work < grid.x || p.work == 0), "grid n=%zu", n);
        for (k = 0; k < blocks; ++k) replay_job(&a[0], ld, &hits[0], tposei_cuda_job_enum(&p, k));
    }
    for (r = 0; r < n; ++r)
        for (c = 0; c < ld; ++c) {
            int inside = c < n;
            uint32_t want = inside ? (uint32_t)(c * ld + r) : (uint32_t)(r * ld + c);
            if (a[r * ld + c] != want || hits[r * ld + c] != (inside ? 1 : 0)) ++bad;
        }
    TT_CHECK(bad == 0 && hits[ld * n] == 0, "replay %s n=%zu ld=%zu band=%zu: %zu bad",
             tpose_cuda_scheme_name(scheme), n, ld, band, bad);
}

/* Every job of one out-of-place launch; dst must be the transpose, each element hit once. */
static void replay_matrix(size_t rows, size_t cols, tpose_cuda_scheme scheme, size_t band)
{
    tposei_cuda_oop p;
    const size_t src_ld = cols + 1, dst_ld = rows + 2;
    std::vector<uint32_t> dst(cols * dst_ld, 0xffffffffu);
    std::vector<unsigned char> hits(cols * dst_ld);
    size_t r, c, y, x, bad = 0;
    uint64_t k, blocks;
    dim3 grid;
    if (!tposei_cuda_oop_plan(&p, NULL, dst_ld, NULL, src_ld, rows, cols, scheme, band)) {
        TT_CHECK(0, "plan %zux%zu", rows, cols);
        return;
    }
    tposei_cuda_flat_grid(p.work, &grid);
    blocks = (uint64_t)grid.x * grid.y * grid.z;
    for (k = 0; k < blocks; ++k) {
        tposei_cuda_job j = tposei_cuda_job_oop(&p, k);
        if (j.kind != TPOSEI_CUDA_COPY) {
            TT_CHECK(j.kind == TPOSEI_CUDA_IDLE && k >= p.work, "job %llu", (unsigned long long)k);
            continue;
        }
        for (y = 0; y < j.w; ++y) /* D(y, x) = S(x, y), S(r, c) = r * src_ld + c */
            for (x = 0; x < j.h; ++x) {
                dst[(j.c0 + y) * dst_ld + j.r0 + x] = (uint32_t)((j.r0 + x) * src_ld + j.c0 + y);
                hits[(j.c0 + y) * dst_ld + j.r0 + x]++;
            }
    }
    for (c = 0; c < cols; ++c)
        for (r = 0; r < dst_ld; ++r) {
            int inside = r < rows;
            uint32_t want = inside ? (uint32_t)(r * src_ld + c) : 0xffffffffu;
            if (dst[c * dst_ld + r] != want || hits[c * dst_ld + r] != (inside ? 1 : 0)) ++bad;
        }
    TT_CHECK(bad == 0, "replay %s %zux%zu band=%zu: %zu bad", tpose_cuda_scheme_name(scheme), rows,
             cols, band, bad);
}

static void test_replay(void)
{
    static const size_t bands[] = {0, 1, 2, 3, 5, 1000};
    static const size_t big[] = {1000, 1024, 1025, 2047, 4113};
    static const size_t dims[] = {1, 2, 31, 32, 33, 64, 95, 100, 257, 1000};
    size_t n, s, b, i, j;
    for (n = 0; n <= 300; ++n)
        for (s = 0; s < 4; ++s) replay_square(n, n + (n % 3), ip_schemes[s], 0);
    for (n = 0; n <= 300; n += 7)
        for (b = 0; b < sizeof bands / sizeof bands[0]; ++b)
            replay_square(n, n, TPOSE_CUDA_V1B, bands[b]);
    for (i = 0; i < sizeof big / sizeof big[0]; ++i)
        for (s = 0; s < 4; ++s) replay_square(big[i], big[i] + 1, ip_schemes[s], s == 3 ? 3 : 0);
    for (i = 0; i < sizeof dims / sizeof dims[0]; ++i)
        for (j = 0; j < sizeof dims / sizeof dims[0]; ++j) {
            replay_matrix(dims[i], dims[j], TPOSE_CUDA_PLAIN, 0);
            for (b = 0; b < sizeof bands / sizeof bands[0]; ++b)
                replay_matrix(dims[i], dims[j], TPOSE_CUDA_V1BF, bands[b]);
        }
}

/* ------------------------------------------------------------------------------------------ */
/* Device part. */

#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    cudaGetErrorString(err_));                                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define GUARD 256 /* bytes of guard before and after every device buffer; keeps alignment */

/* Decode on the device: out[4i..4i+3] = V1 (x, y), V1B (x, y) of (m[i], w[i], k[i]). */
static __global__ void decode_kernel(const uint64_t *m, const uint64_t *w, const uint64_t *k,
                                     uint64_t *out, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        tposei_xy a = tposei_v1_unpair(k[i]);
        tposei_xy b = tposei_v1b_unpair(m[i], w[i], k[i]);
        out[4 * i] = a.x;
        out[4 * i + 1] = a.y;
        out[4 * i + 2] = b.x;
        out[4 * i + 3] = b.y;
    }
}

static void test_device_decode(void)
{
    const int count = 1 << 16;
    std::vector<uint64_t> m(count), w(count), k(count), out(4 * count);
    uint64_t *dm, *dw, *dk, *dout;
    int i;
    for (i = 0; i < count; ++i) {
        m[i] = 2 + tt_rand_below(i % 2 ? (size_t)1 << 21 : ((size_t)1 << 31) - 2);
        w[i] = 1 + tt_rand_below(i % 3 ? 64 : (size_t)m[i]);
        k[i] = tt_rand_below(tposei_tri_excl(m[i]));
    }
    CUDA_OK(cudaMalloc(&dm, count * 8));
    CUDA_OK(cudaMalloc(&dw, count * 8));
    CUDA_OK(cudaMalloc(&dk, count * 8));
    CUDA_OK(cudaMalloc(&dout, 4 * count * 8));
    CUDA_OK(cudaMemcpy(dm, &m[0], count * 8, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dw, &w[0], count * 8, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dk, &k[0], count * 8, cudaMemcpyHostToDevice));
    decode_kernel<<<count / 256, 256>>>(dm, dw, dk, dout, count);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(&out[0], dout, 4 * count * 8, cudaMemcpyDeviceToHost));
    for (i = 0; i < count; ++i) {
        tposei_xy a = tposei_v1_unpair(k[i]);
        tposei_xy b = tposei_v1b_unpair(m[i], w[i], k[i]);
        TT_CHECK(out[4 * i] == a.x && out[4 * i + 1] == a.y && out[4 * i + 2] == b.x &&
                     out[4 * i + 3] == b.y,
                 "device decode m=%llu w=%llu k=%llu", (unsigned long long)m[i],
                 (unsigned long long)w[i], (unsigned long long)k[i]);
    }
    cudaFree(dm);
    cudaFree(dw);
    cudaFree(dk);
    cudaFree(dout);
}

/* A device buffer with GUARD bytes each side, all random; the host keeps a copy. */
struct dev_buf {
    unsigned char *base; /* device, bytes + 2 GUARD */
    std::vector<unsigned char> host;
    size_t bytes;
};

static void buf_init(dev_buf *b, size_t bytes)
{
    b->bytes = bytes;
    b->host.assign(bytes + 2 * GUARD, 0);
    tt_fill_random(&b->host[0], b->host.size());
    CUDA_OK(cudaMalloc(&b->base, b->host.size()));
    CUDA_OK(cudaMemcpy(b->base, &b->host[0], b->host.size(), cudaMemcpyHostToDevice));
}

/* Compare the device buffer, guards included, with `want`; frees it. */
static int buf_check(dev_buf *b, const std::vector<unsigned char> &want)
{
    std::vector<unsigned char> got(b->host.size());
    CUDA_OK(cudaMemcpy(&got[0], b->base, got.size(), cudaMemcpyDeviceToHost));
    cudaFree(b->base);
    return tt_first_diff(&got[0], &want[0], got.size()) == (size_t)-1;
}

static void device_square(size_t n, size_t ld, size_t esize, tpose_cuda_scheme scheme, size_t band,
                          cudaStream_t stream)
{
    dev_buf b;
    std::vector<unsigned char> want;
    cudaError_t err = cudaErrorUnknown;
    tpose_status st;
    size_t bytes = n == 0 ? 0 : ((n - 1) * ld + n) * esize, r, c;
    buf_init(&b, bytes);
    want = b.host;
    for (r = 0; r < n; ++r) /* the n x n block transposed, everything else as it was */
        for (c = 0; c < n; ++c)
            memcpy(&want[GUARD + (r * ld + c) * esize], &b.host[GUARD + (c * ld + r) * esize],
                   esize);
    st = tpose_cuda_inplace_square_with(scheme, band, b.base + GUARD, n, ld, esize, stream, &err);
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    TT_CHECK(st == TPOSE_OK && err == cudaSuccess && buf_check(&b, want),
             "in place %s n=%zu ld=%zu esize=%zu band=%zu: status %d",
             tpose_cuda_scheme_name(scheme), n, ld, esize, band, (int)st);
}

static void device_matrix(size_t rows, size_t cols, size_t src_ld, size_t dst_ld, size_t esize,
                          tpose_cuda_scheme scheme, size_t band, cudaStream_t stream)
{
    dev_buf s, d;
    std::vector<unsigned char> want;
    cudaError_t err = cudaErrorUnknown;
    tpose_status st;
    int dst_ok, src_ok;
    buf_init(&s, ((rows - 1) * src_ld + cols) * esize);
    buf_init(&d, ((cols - 1) * dst_ld + rows) * esize);
    want = d.host;
    tt_reference(&want[GUARD], dst_ld, &s.host[GUARD], src_ld, rows, cols, esize);
    st = tpose_cuda_matrix_with(scheme, band, d.base + GUARD, dst_ld, s.base + GUARD, src_ld, rows,
                                cols, esize, stream, &err);
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    dst_ok = buf_check(&d, want);
    src_ok = buf_check(&s, s.host); /* the source is read only */
    TT_CHECK(st == TPOSE_OK && err == cudaSuccess && dst_ok && src_ok,
             "out of place %s %zux%zu ld %zu/%zu esize=%zu band=%zu: status %d, dst %s, src %s",
             tpose_cuda_scheme_name(scheme), rows, cols, src_ld, dst_ld, esize, band, (int)st,
             dst_ok ? "ok" : "wrong", src_ok ? "ok" : "changed");
}

static void test_device_kernels(void)
{
    static const size_t orders[] = {1, 2, 17, 31, 32, 33, 64, 65, 96, 127, 200, 256, 257, 1031};
    static const size_t dims[] = {1, 3, 31, 32, 33, 96, 130, 1000};
    static const size_t bands[] = {0, 1, 3};
    cudaStream_t stream;
    size_t e, i, j, s, b;
    CUDA_OK(cudaStreamCreate(&stream));
    for (e = 0; e < 5; ++e)
        for (i = 0; i < sizeof orders / sizeof orders[0]; ++i)
            for (s = 0; s < 4; ++s)
                for (b = 0; b < (s == 3 ? 3u : 1u); ++b) {
                    size_t n = orders[i];
                    device_square(n, n, esizes[e], ip_schemes[s], bands[b], 0);
                    device_square(n, n + 5, esizes[e], ip_schemes[s], bands[b], stream);
                }
    for (e = 0; e < 5; ++e)
        for (i = 0; i < sizeof dims / sizeof dims[0]; ++i)
            for (j = 0; j < sizeof dims / sizeof dims[0]; ++j) {
                size_t r = dims[i], c = dims[j];
                device_matrix(r, c, c, r, esizes[e], TPOSE_CUDA_PLAIN, 0, 0);
                device_matrix(r, c, c + 3, r + 1, esizes[e], TPOSE_CUDA_PLAIN, 0, stream);
                for (b = 0; b < 3; ++b)
                    device_matrix(r, c, c + 1, r + 7, esizes[e], TPOSE_CUDA_V1BF, bands[b], stream);
            }
    device_matrix(70000, 3, 3, 70000, 4, TPOSE_CUDA_PLAIN, 0, 0); /* tall: many tile rows */
    device_matrix(70000, 3, 3, 70000, 8, TPOSE_CUDA_V1BF, 0, 0);
    device_matrix(2, 100000, 100000, 2, 2, TPOSE_CUDA_V1BF, 5, 0); /* wide */
    cudaStreamDestroy(stream);
}

int main(void)
{
    int devices = 0;
    test_arguments();
    test_isqrt_fp();
    test_replay();
    if (tt_failures != 0) return tt_finish("test_cuda (host part)");
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        tt_finish("test_cuda (host part)");
        printf("test_cuda: no CUDA device, device part skipped\n");
        return TT_SKIP;
    }
    test_device_decode();
    test_device_kernels();
    return tt_finish("test_cuda");
}
