#!/bin/sh
# Times AUTO on every shape the SIMD issue sets a target for, from memory (cold), then on
# issue 59's warm shapes (tpose-bench -w: one pair, the same buffers every pass); one
# markdown table each, a row per shape. One round (the default): tpose-bench's own line
# (GB/s, ticks per element, ratio to memcpy of the same bytes, same process) and the target.
# ROUNDS > 1: the median ratio over that many interleaved rounds (bench/interleave.py), its
# range, the target and whether the median meets it; on a shared machine single runs swing
# by 0.1-0.3, medians less.
# ROUNDS = 0: one run of every kernel and every peer library built in (Meson option `peers`)
# per shape, a column each, "-" where one has no routine for that element size.
# OPTIONS: more tpose-bench options for every run, e.g. -H (both matrices on 2 MiB pages).
# Run it alone: with two cores a second benchmark beside it skews both.
# usage: bench/targets.sh [BUILD_DIR] [REPS] [ROUNDS] [OPTIONS]
set -eu
. "$(dirname "$0")/auto-env.sh"
rounds=${3:-1}
options=${4:-}

targets() { # one shape a line: rows cols esize target
    for e in 1 2 4 8; do echo "2112 2112 $e 0.9"; done # square N = 2112
    for s in "4096 1024 1" "1024 2048 2" "1536 1024 4" "1024 1024 8"; do
        echo "$s 0.9" # 1-16 MiB
    done
    for s in "16448 16448 1" "8256 8256 4" "5824 5824 8" "3001 7919 4" "10000 3000 4"; do
        echo "$s 0.75" # >= 256 MiB
    done
    for n in 4096 8192; do for e in 1 4; do echo "$n $n $e 0.6"; done; done # powers of two
    for e in 1 4 8; do # skinny
        for s in "1000000 3" "3 1000000" "4000000 8" "8 4000000"; do echo "$s $e 0.95"; done
    done
}

targets_warm() { # 0.8 where source and destination fit in L2 together (1 MiB here), else 0.6
    echo "256 256 4 0.8"
    echo "256 256 1 0.8"
    for s in "512 512 4" "1024 1024 4" "1536 1024 4" "1024 2048 2" "4096 1024 1" "2112 2112 1" \
             "2112 2112 4" "1024 1024 8"; do echo "$s 0.6"; done
}

if [ "${TARGETS_WARM:-}" = 1 ]; then # the second pass: the warm table
    targets() { targets_warm; }
    options="$options -w"
    echo
    echo "Warm (-w):"
    echo
else # the cold table here, then this script again for the warm one
    trap 'TARGETS_WARM=1 "$0" "$build" "$reps" "$rounds" "$options"' EXIT
fi

if [ "$rounds" -eq 0 ]; then
    # shellcheck disable=SC2086 # $options: several words on purpose
    targets | while read -r r c e t; do
        "$bench" -r "$r" -c "$c" -e "$e" -n "$reps" -m 512 $options | tail -n +5 |
            awk -F'|' -v t="$t" '{ k = $4; sub(/^ +/, "", k); sub(/ +$/, "", k); sub(/ \(.*/, "", k)
                                  gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $7)
                                  print $2 "|" $3 "|" t "|" k "|" $7 }'
    done | awk -F'|' '
        !($4 in col) { col[$4] = ++ncol; name[ncol] = $4 }
        !(($1 "|" $2) in row) { row[$1 "|" $2] = ++nrow; key[nrow] = $1 "|" $2; tgt[nrow] = $3 }
        { cell[row[$1 "|" $2], col[$4]] = $5 }
        END {
            printf "| shape | esize | target |"; for (j = 1; j <= ncol; j++) printf " %s |", name[j]
            printf "\n|---|---:|---:|"; for (j = 1; j <= ncol; j++) printf "---:|"
            printf "\n"
            for (i = 1; i <= nrow; i++) {
                split(key[i], k, "|"); printf "| %s | %s | %s |", k[1], k[2], tgt[i]
                for (j = 1; j <= ncol; j++) printf " %s |", ((i, j) in cell) ? cell[i, j] : "-"
                printf "\n"
            }
        }'
    exit 0
fi

if [ "$rounds" -le 1 ]; then
    fit=${TARGETS_WARM:+ data in |} # -w's column
    echo "| shape | esize | kernel | GB/s | ticks/elem | ratio to memcpy |$fit target |"
    echo "|---|---:|---|---:|---:|---:|${fit:+---|}---:|"
    # shellcheck disable=SC2086 # $options: several words on purpose
    targets | while read -r r c e t; do
        line=$("$bench" -r "$r" -c "$c" -e "$e" -k auto -n "$reps" -m 512 $options | tail -n 1)
        echo "$line $t |"
    done
    exit 0
fi

set -- # the shapes with their targets, one argument each (interleave.py reads 3 words)
while read -r shape; do set -- "$@" "$shape"; done <<EOF
$(targets)
EOF
echo "| shape | esize | median ratio to memcpy (range) | target | met |"
echo "|---|---:|---:|---:|---|"
spec=$bench # interleave.py takes the options after @, comma-separated
[ -z "$options" ] || spec="$bench@$(printf '%s' "$options" | tr -s ' ' ',')"
REPS="$reps" MIB=512 python3 "$(dirname "$0")/interleave.py" "$rounds" "$spec" -- "$@" |
    tail -n +3 |
    awk -F'|' '{
        split($2, s, " "); split($3, m, " ")
        met = (m[1] + 0 >= s[4] + 0) ? "yes" : "no"
        printf "| %sx%s | %s | %s %s | %s | %s |\n", s[1], s[2], s[3], m[1], m[2], s[4], met
    }'
