// bench_permute_eigen.cpp - Eigen's Tensor shuffle beside tpose-bench-permute: the same cases
// (bench/ttc-bench.txt, NCHW <-> NHWC, attention heads), row-major TensorMaps, the shuffle
// assigned into a preallocated destination, against memcpy of the same bytes, cold (pools of
// at least 256 MiB), median of -n passes. Built only where Eigen 3 is installed
// (libeigen3-dev); one thread (no EIGEN_USE_THREADS).
//
// usage: tpose-bench-permute-eigen [-f FILE] [-e ESIZE] [-c CASE] [-n REPS]
#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef TB_CASES_FILE
#define TB_CASES_FILE "bench/ttc-bench.txt"
#endif

struct Case {
    std::string tag;
    std::vector<long> dims, perm;
};

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename T, int R>
static double run(const Case &c, int reps)
{
    std::array<long, R> in, out, sh;
    size_t n = 1;
    for (int k = 0; k < R; k++) {
        in[k] = c.dims[k];
        sh[k] = c.perm[k];
        n *= (size_t)c.dims[k];
    }
    for (int k = 0; k < R; k++) out[k] = in[sh[k]];
    const size_t bytes = n * sizeof(T);
    const size_t count = std::max<size_t>(1, (256u << 20) / (2 * bytes) + 1);
    std::vector<std::vector<T>> src(count, std::vector<T>(n, T(1))), dst(count, std::vector<T>(n));
    std::vector<double> cp, tr;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t i = 0; i < count; i++) std::memcpy(dst[i].data(), src[i].data(), bytes);
        cp.push_back(now() - t0);
        t0 = now();
        for (size_t i = 0; i < count; i++) {
            Eigen::TensorMap<Eigen::Tensor<const T, R, Eigen::RowMajor>> s(src[i].data(), in);
            Eigen::TensorMap<Eigen::Tensor<T, R, Eigen::RowMajor>> d(dst[i].data(), out);
            d = s.shuffle(sh);
        }
        tr.push_back(now() - t0);
    }
    return median(cp) / median(tr);
}

template <typename T>
static double by_rank(const Case &c, int reps)
{
    switch (c.dims.size()) {
    case 2: return run<T, 2>(c, reps);
    case 3: return run<T, 3>(c, reps);
    case 4: return run<T, 4>(c, reps);
    case 5: return run<T, 5>(c, reps);
    case 6: return run<T, 6>(c, reps);
    default: return 0;
    }
}

int main(int argc, char **argv)
{
    const char *file = TB_CASES_FILE;
    std::vector<int> esizes;
    int only = 0, reps = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string o = argv[i];
        if (o == "-f") file = argv[i + 1];
        else if (o == "-e") esizes.push_back(std::atoi(argv[i + 1]));
        else if (o == "-c") only = std::atoi(argv[i + 1]);
        else if (o == "-n") reps = std::max(1, std::atoi(argv[i + 1]));
    }
    if (esizes.empty()) esizes = {4, 2, 1};
    std::vector<Case> cases;
    std::ifstream f(file);
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::stringstream ss(line);
        std::string part[3];
        std::getline(ss, part[0], '|');
        std::getline(ss, part[1], '|');
        std::getline(ss, part[2], '|');
        Case c;
        c.tag = "ttc";
        std::stringstream d(part[1]), p(part[2]);
        long v;
        while (d >> v) c.dims.push_back(v);
        while (p >> v) c.perm.push_back(v);
        cases.push_back(c);
    }
    cases.push_back({"nchw>nhwc", {32, 64, 56, 56}, {0, 2, 3, 1}});
    cases.push_back({"nhwc>nchw", {32, 56, 56, 64}, {0, 3, 1, 2}});
    cases.push_back({"heads", {8, 512, 16, 64}, {0, 2, 1, 3}});
    std::printf("| # | case | esize | Eigen ratio |\n|---:|---|---:|---:|\n");
    for (int e : esizes)
        for (size_t i = 0; i < cases.size(); i++) {
            if (only && (size_t)only != i + 1) continue;
            const double r = e == 1   ? by_rank<uint8_t>(cases[i], reps)
                             : e == 2 ? by_rank<uint16_t>(cases[i], reps)
                                      : by_rank<float>(cases[i], reps);
            std::printf("| %zu | %s | %d | %.3f |\n", i + 1, cases[i].tag.c_str(), e, r);
            std::fflush(stdout);
        }
    return 0;
}
