/* test_swar.c - the SWAR networks on their own: each tile kernel against the reference,
   and the big-endian form of the masks and shifts, run here by byte-swapping every word so
   a little-endian host sees exactly what a big-endian one would load and store. */
#define TPOSE_IMPLEMENTATION
#include "transpose.h"
#include "tpose_test.h"

static uint64_t byteswap64(uint64_t w)
{
    uint64_t r = 0;
    int i;
    for (i = 0; i < 8; i++) r = (r << 8) | ((w >> (8 * i)) & 0xff);
    return r;
}

/* Loads n words as a host of the other byte order would, runs the network with that
   order's masks, and stores them back the same way. */
static void swar_tile_foreign_order(unsigned char *dst, const unsigned char *src, unsigned n)
{
    uint64_t w[8];
    unsigned i;
    const int little = tposei_host_little();
    for (i = 0; i < n; i++) w[i] = byteswap64(tposei_load64(src + 8 * i));
    tposei_swar_network(w, n, !little);
    for (i = 0; i < n; i++) tposei_store64(dst + 8 * i, byteswap64(w[i]));
}

static void check_tile(unsigned n, tposei_tile_fn kernel)
{
    const size_t esize = 8 / n;
    unsigned char src[64], want[64], got[64];
    int round;
    for (round = 0; round < 1000; round++) {
        tt_fill_random(src, sizeof src);
        tt_reference(want, n, src, n, n, n, esize);
        memset(got, TT_GUARD, sizeof got);
        kernel(got, 8, src, 8);
        TT_CHECK(memcmp(want, got, 8 * n) == 0, "%ux%u tile, host byte order", n, n);
        memset(got, TT_GUARD, sizeof got);
        swar_tile_foreign_order(got, src, n);
        TT_CHECK(memcmp(want, got, 8 * n) == 0, "%ux%u tile, foreign byte order", n, n);
    }
}

/* Strided tiles with misaligned rows: the word loads must not assume alignment. */
static void check_strided(void)
{
    unsigned char src[40 * 8 + 64], want[40 * 8 + 64], got[40 * 8 + 64];
    size_t off;
    for (off = 0; off < 8; off++) {
        tt_fill_random(src, sizeof src);
        memset(want, TT_GUARD, sizeof want);
        memset(got, TT_GUARD, sizeof got);
        tt_reference(want + off, 40, src + off, 40, 8, 8, 1);
        tposei_u8_8x8_swar(got + off, 40, src + off, 40);
        TT_CHECK(memcmp(want, got, sizeof got) == 0, "strided 8x8, offset %zu", off);
    }
}

int main(void)
{
    printf("host is %s-endian\n", tposei_host_little() ? "little" : "big");
    check_tile(8, tposei_u8_8x8_swar);
    check_tile(4, tposei_u16_4x4_swar);
    check_tile(2, tposei_u32_2x2_swar);
    check_strided();
    return tt_finish("test_swar");
}
