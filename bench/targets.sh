#!/bin/sh
# Times AUTO on every shape the SIMD issue sets a target for and prints one markdown row per
# shape: tpose-bench's own line (GB/s, ticks per element, ratio to memcpy of the same
# bytes, same process).
# Run it alone: with two cores a second benchmark beside it skews both.
# usage: bench/targets.sh [BUILD_DIR] [REPS]
set -eu
. "$(dirname "$0")/auto-env.sh"
run() { # rows cols esize
    "$bench" -r "$1" -c "$2" -e "$3" -k auto -n "$reps" -m 512 | tail -n 1
}
echo "| shape | esize | kernel | GB/s | ticks/elem | ratio to memcpy |"
echo "|---|---:|---|---:|---:|---:|"
for e in 1 2 4 8; do run 2112 2112 "$e"; done          # square N = 2112: >= 0.9
run 4096 1024 1; run 1024 2048 2; run 1536 1024 4; run 1024 1024 8  # 1-16 MiB: >= 0.9
run 16448 16448 1; run 8256 8256 4; run 5824 5824 8   # >= 256 MiB: >= 0.75
run 3001 7919 4; run 10000 3000 4
for n in 4096 8192; do for e in 1 4; do run "$n" "$n" "$e"; done; done  # powers of two: >= 0.6
for e in 1 4 8; do                                     # skinny: >= 0.95
    run 1000000 3 "$e"; run 3 1000000 "$e"; run 4000000 8 "$e"; run 8 4000000 "$e"
done
