# Sourced by the AUTO sweeps (targets.sh, rects.sh): takes [BUILD_DIR] [REPS] from their
# arguments and defines `bench` (the tpose-bench binary) and `reps`, or stops with the
# command that builds it.
build=${1:-build-rel}
reps=${2:-5}
bench="$build/bench/tpose-bench"
if [ ! -x "$bench" ]; then
    echo "$bench not found: meson setup $build --buildtype=release && meson compile -C $build tpose-bench"
    exit 1
fi
