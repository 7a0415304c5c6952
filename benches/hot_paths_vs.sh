#!/usr/bin/env bash
# Two builds of the in-process hot-path benches (benches/hot_paths.rs), side by side: each is
# run RUNS times, alternately, SAMPLES samples a run; a bench's figure is the median over the
# runs of each run's fastest sample, and the ratio is after/before (below 1: faster).
#
#   benches/hot_paths_vs.sh BEFORE AFTER [FILTER...]
#
# BEFORE and AFTER are the bench binaries `cargo bench --bench hot_paths --no-run` prints
# (target/release/deps/hot_paths-*), built from two checkouts; FILTER picks benches by name as
# divan does. The frames are in memory, one event per line: no HTTP framing, no gzip.
set -euo pipefail
(( $# >= 2 )) || { sed -n '2,10p' "$0" >&2; exit 2; }
before=$1 after=$2
shift 2
for binary in "$before" "$after"; do
    [[ -x $binary ]] || { echo "not an executable bench binary: $binary" >&2; exit 2; }
done
runs=${RUNS:-4}
samples=${SAMPLES:-200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One run: "bench fastest-in-ns" lines from divan's table.
fastest() {
    "$1" --bench --sample-count "$samples" "${@:2}" 2> /dev/null | awk '
        /│/ && $2 ~ /^[a-z_]+$/ {
            name = $2; value = $3; unit = $4
            scale = unit == "ns" ? 1 : unit == "µs" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 0
            if (scale) print name, value * scale
        }'
}

for run in $(seq "$runs"); do
    fastest "$before" "$@" > "$out/before.$run"
    fastest "$after" "$@" > "$out/after.$run"
done

# The median over the runs of one side's figures for a bench.
median() {
    cat "$out/$1".* | awk -v bench="$2" '$1 == bench { print $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

printf '%-22s %14s %14s %10s\n' bench "before (ns)" "after (ns)" after/before
for bench in $(awk '{ print $1 }' "$out/before.1" | sort -u); do
    b=$(median before "$bench")
    a=$(median after "$bench")
    [[ -n $b && -n $a ]] || continue
    awk -v n="$bench" -v b="$b" -v a="$a" 'BEGIN { printf "%-22s %14.0f %14.0f %9.3fx\n", n, b, a, a / b }'
done
echo "($runs runs each, alternately, $samples samples a run; fastest sample, median over runs)"
