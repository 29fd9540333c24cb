#!/bin/sh
# Compares kernels as whole processes with hyperfine: each command is one tpose-bench run
# pinned to a single kernel, so process start-up, page faults and allocation are included.
# usage: bench/compare-kernels.sh [BUILD_DIR] [ROWS] [COLS] [ESIZE]
set -eu
build=${1:-build}
rows=${2:-8256}
cols=${3:-$rows}
esize=${4:-1}
bench="$build/bench/tpose-bench"
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)"; exit 1; }
[ -x "$bench" ] || { echo "$bench not found: meson setup $build && meson compile -C $build tpose-bench"; exit 1; }
set --
for k in $("$bench" -r 64 -e "$esize" -n 1 -m 0 | awk -F'|' 'NR > 4 && $4 !~ /auto/ {gsub(/ /, "", $4); print $4}'); do
    set -- "$@" "$bench -r $rows -c $cols -e $esize -k $k -n 1 -m 0"
done
hyperfine -N --warmup 1 --runs 5 --export-markdown "kernels-${rows}x${cols}-e${esize}.md" "$@"
