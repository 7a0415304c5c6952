#!/usr/bin/env bash
# What watching several clusters costs (issue #15): kw's CPU per event watching three clusters
# at once against watching one, side by side in one run.
#
# Three `kw sim --http --empty --flood N` servers, each sending N MODIFIED pod events of ~4 KB
# framed one HTTP chunk per event (as kube-apiserver sends a busy watch), one kubeconfig naming
# them c1, c2, c3. Alternating runs of `kw get pods -A -w -o jsonl` with `--context c1` (N
# events) and `--context c1,c2,c3` (3N events, merged); CPU is user+sys from /usr/bin/time.
#
#   benches/fleet.sh                 # EVENTS=20000 RUNS=3
#   EVENTS=5000 RUNS=1 benches/fleet.sh
#
# Each flood ends with the sim's "flood ended" 400, which ends that context's stream; the run
# ends when all have. Nothing here asserts on time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

EVENTS=${EVENTS:-20000}
RUNS=${RUNS:-3}
cargo build --release --quiet
KW=$PWD/target/release/kw
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Each sim's kubeconfig names its cluster, context and user `sim`/`admin`: rename them cN so the
# three merge into one KUBECONFIG without shadowing each other.
for n in 1 2 3; do
    "$KW" sim --http --empty --flood "$EVENTS" --kubeconfig-out "$WORK/sim$n.kc" \
        </dev/null >"$WORK/sim$n.out" 2>&1 &
    PIDS+=($!)
done
for n in 1 2 3; do
    for _ in $(seq 1 100); do
        grep -q ready "$WORK/sim$n.out" 2>/dev/null && break
        sleep 0.1
    done
    sed -E -e "s/^- name: sim$/- name: c$n/" -e "s/cluster: sim$/cluster: c$n/" \
        -e "s/user: admin$/user: c$n-admin/" -e "s/^- name: admin$/- name: c$n-admin/" \
        -e "s/^current-context: sim$/current-context: c$n/" "$WORK/sim$n.kc" >"$WORK/c$n.kc"
done
export KUBECONFIG=$WORK/c1.kc:$WORK/c2.kc:$WORK/c3.kc

# run CONTEXTS: one run; prints "cpu_seconds events".
run() {
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$KW" get pods -A -w -o jsonl --context "$1" \
        >"$WORK/stdout" 2>"$WORK/err" || true
    local events
    events=$(wc -l <"$WORK/stdout")
    awk -v e="$events" 'END { printf "%.3f %d\n", $1 + $2, e }' "$WORK/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

one=() three=()
for _ in $(seq 1 "$RUNS"); do
    read -r cpu events < <(run c1)
    one+=("$(awk -v c="$cpu" -v e="$events" 'BEGIN { printf "%.3f", c * 1e6 / e }')")
    read -r cpu events < <(run c1,c2,c3)
    three+=("$(awk -v c="$cpu" -v e="$events" 'BEGIN { printf "%.3f", c * 1e6 / e }')")
done
m1=$(printf '%s\n' "${one[@]}" | median)
m3=$(printf '%s\n' "${three[@]}" | median)
echo "kw fleet benchmark: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $EVENTS events per cluster, $RUNS runs, per-event chunks"
echo "CPU per event (µs, median): one cluster $m1, three clusters $m3"
awk -v a="$m1" -v b="$m3" 'BEGIN { printf "three clusters cost %.2f× one cluster per event (target ≤ 3×: three clusters, each event counted once)\n", b / a }'
