#!/bin/sh
# Times AUTO on 1-16 MiB rectangles and squares whose sides are not multiples of a cache
# line (rows off lines, edge strips) as well as powers of two, and prints one markdown row
# per shape: ratio to memcpy of the same bytes (tpose-bench, same process) per element size.
# Run it alone: with two cores a second benchmark beside it skews both.
# usage: bench/rects.sh [BUILD_DIR] [REPS]
set -eu
. "$(dirname "$0")/auto-env.sh"
ratio() { # rows cols esize
    "$bench" -r "$1" -c "$2" -e "$3" -k auto -n "$reps" -m 512 | tail -n 1 |
        awk -F'|' '{gsub(/ /, "", $7); print $7}'
}
echo "| shape | 1-byte | 2-byte | 4-byte | 8-byte |"
echo "|---|---:|---:|---:|---:|"
for shape in 1000x1500 1500x1000 2000x2000 1448x1448 3000x1000 1024x1024 2048x2048; do
    r=${shape%x*}
    c=${shape#*x}
    printf "| %s | %s | %s | %s | %s |\n" "$shape" "$(ratio "$r" "$c" 1)" "$(ratio "$r" "$c" 2)" \
        "$(ratio "$r" "$c" 4)" "$(ratio "$r" "$c" 8)"
done
