/* permute_cli.c - tpose_permute on a tensor read from a file, for check_permute_numpy.py.

   permute_cli IN OUT
   IN:  the 8 bytes "TPERMUT1", then little-endian uint64 values: rank, esize, dims[rank]
        (the source's extents), perm[rank]; then the dense source tensor's bytes.
   OUT: the dense destination tensor's bytes, nothing else.
   Exit status 0, or 2 with a message (bad input, or the status tpose_permute returned). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transpose_tensor.h" /* the implementation is linked in (transpose_tensor.c) */

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "permute_cli: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 2;
}

static int read_u64(FILE *f, size_t *out)
{
    unsigned char b[8];
    uint64_t v = 0;
    int i;
    if (fread(b, 1, 8, f) != 8) return 0;
    for (i = 7; i >= 0; i--) v = v << 8 | b[i];
    if (v > (uint64_t)(size_t)-1) return 0;
    *out = (size_t)v;
    return 1;
}

int main(int argc, char **argv)
{
    size_t rank, esize, dims[TPOSE_MAX_RANK], perm[TPOSE_MAX_RANK], k, n = 1;
    unsigned char magic[8], *src, *dst;
    FILE *f;
    tpose_status st;
    if (argc != 3) return fail("usage: permute_cli IN OUT", NULL);
    f = fopen(argv[1], "rb");
    if (!f) return fail("cannot open", argv[1]);
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "TPERMUT1", 8) != 0)
        return fail("not a TPERMUT1 file", argv[1]);
    if (!read_u64(f, &rank) || !read_u64(f, &esize) || rank > TPOSE_MAX_RANK || esize == 0)
        return fail("bad rank or esize", argv[1]);
    for (k = 0; k < rank; k++)
        if (!read_u64(f, &dims[k])) return fail("short header (dims)", argv[1]);
    for (k = 0; k < rank; k++)
        if (!read_u64(f, &perm[k])) return fail("short header (perm)", argv[1]);
    for (k = 0; k < rank; k++) {
        if (dims[k] != 0 && n > (size_t)-1 / dims[k]) return fail("tensor too large", NULL);
        n *= dims[k];
    }
    if (n > (size_t)-1 / esize) return fail("tensor too large", NULL);
    n *= esize;
    src = (unsigned char *)malloc(n ? n : 1);
    dst = (unsigned char *)malloc(n ? n : 1);
    if (!src || !dst) return fail("out of memory", NULL);
    if (fread(src, 1, n, f) != n) return fail("short tensor data", argv[1]);
    fclose(f);
    st = tpose_permute(dst, NULL, src, NULL, rank, dims, perm, esize);
    if (st != TPOSE_OK) return fail("tpose_permute", tpose_status_str(st));
    f = fopen(argv[2], "wb");
    if (!f) return fail("cannot create", argv[2]);
    if (fwrite(dst, 1, n, f) != n || fclose(f) != 0) return fail("cannot write", argv[2]);
    free(dst);
    free(src);
    return 0;
}
