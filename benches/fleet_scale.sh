#!/usr/bin/env bash
# What a fleet of N contexts costs one kw (issue #47), measured before anything is changed:
# one `kw sim --churn RATE` over TLS (the seeded world, 24 Pods; churn events framed one HTTP
# chunk per event, as kube-apiserver sends them), a kubeconfig of N contexts all pointing at it,
# and `kw --context 'c-*' get pods -A -w -o name` for SECS seconds. Per N: the seconds until
# every context's first list was printed, and after SECS the process's RSS, threads, open
# sockets, CPU and events printed. Beside it, N separate `kubectl get pods -A -w` (one process
# per cluster, as kubectl-foreach runs them) for N up to KUBECTL_MAX, summed.
#
#   benches/fleet_scale.sh                       # NS="50 200 500 1000" SECS=20
#   NS="50 200" SECS=10 KUBECTL_MAX=50 benches/fleet_scale.sh
#
# Environment: KW (default target/release/kw, built if missing), KUBECTL (default the pinned
# reference kubectl of .ci/reference-tools, else kubectl on PATH), RATE (churn events per second,
# default 5). Needs python3 (the reader that times each context's first line) and /proc.
# Nothing here asserts on time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

NS=${NS:-50 200 500 1000}
SECS=${SECS:-20}
RATE=${RATE:-5}
KUBECTL_MAX=${KUBECTL_MAX:-50}
if [[ -z "${KW:-}" ]]; then
    cargo build --release --quiet
    KW=$PWD/target/release/kw
fi
if [[ -z "${KUBECTL:-}" ]]; then
    KUBECTL=$(.ci/reference-tools 2>/dev/null)/kubectl || KUBECTL=$(command -v kubectl || true)
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-fleet.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

"$KW" sim --churn "$RATE" --kubeconfig-out "$WORK/sim.kc" </dev/null >"$WORK/sim.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do
    grep -q ready "$WORK/sim.out" 2>/dev/null && break
    sleep 0.1
done

# kubeconfig N: the sim's cluster and admin user, contexts c-0 .. c-(N-1).
write_kubeconfig() {
    python3 - "$WORK/sim.kc" "$1" "$2" <<'EOF'
import re, sys
source, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(source).read()
contexts = "contexts:\n" + "".join(
    f"- name: c-{i}\n  context:\n    cluster: sim\n    user: admin\n" for i in range(n))
text = re.sub(r"contexts:\n.*?\ncurrent-context:.*?\n", contexts + "current-context: c-0\n",
              text, flags=re.S)
open(out, "w").write(text)
EOF
}

# Reads `CONTEXT/kind/name` lines: when every one of N contexts has printed, the seconds since
# start go to FILE; the count of lines goes there at the end.
READER='
import sys, time
n, out, start = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
seen, lines, done = set(), 0, None
for line in sys.stdin:
    lines += 1
    seen.add(line.split("/", 1)[0])
    if done is None and len(seen) >= n:
        done = time.time() - start
        open(out, "w").write(f"{done:.2f}\n")
open(out + ".lines", "w").write(f"{lines}\n")
'

# proc_sample PID...: summed RSS (KiB), threads, sockets and CPU seconds of the processes.
proc_sample() {
    local rss=0 threads=0 sockets=0 ticks=0 pid
    for pid in "$@"; do
        [[ -r /proc/$pid/status ]] || continue
        rss=$((rss + $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")))
        threads=$((threads + $(awk '/^Threads/ {print $2}' "/proc/$pid/status")))
        sockets=$((sockets + $(find "/proc/$pid/fd" -lname 'socket:*' 2>/dev/null | wc -l)))
        ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    echo "$rss $threads $sockets $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}')"
}

printf '%-8s %6s %12s %10s %9s %9s %9s %8s %12s\n' client N all-listed-s RSS-MiB threads sockets CPU-s events CPU-ms/kev
report() {
    local client=$1 n=$2 listed=$3 sample=$4 events=$5
    read -r rss threads sockets cpu <<<"$sample"
    awk -v c="$client" -v n="$n" -v l="$listed" -v r="$rss" -v t="$threads" -v s="$sockets" \
        -v cpu="$cpu" -v e="$events" 'BEGIN {
        printf "%-8s %6d %12s %10.1f %9d %9d %9.2f %8d %12s\n", c, n, l, r / 1024, t, s, cpu, e,
            (e > 0 ? sprintf("%.2f", cpu * 1000000 / e / 1000) : "-") }'
}

for n in $NS; do
    write_kubeconfig "$n" "$WORK/fleet-$n.kc"
    start=$(date +%s.%N)
    rm -f "$WORK/listed-$n"
    ( HOME=$WORK exec "$KW" --kubeconfig "$WORK/fleet-$n.kc" --context 'c-*' get pods -A -w -o name \
        2>"$WORK/kw-$n.err" ) |
        python3 -c "$READER" "$n" "$WORK/listed-$n" "$start" &
    reader=$!
    sleep 0.5
    kw_pid=$(pgrep -n -f -- "--kubeconfig $WORK/fleet-$n.kc" || true)
    sleep "$((SECS - 1))"
    sample=$(proc_sample "$kw_pid")
    kill "$kw_pid" 2>/dev/null || true
    wait "$reader" 2>/dev/null || true
    report kw "$n" "$(cat "$WORK/listed-$n" 2>/dev/null || echo never)" "$sample" \
        "$(cat "$WORK/listed-$n.lines" 2>/dev/null || echo 0)"

    if [[ -x "$KUBECTL" ]] && ((n <= KUBECTL_MAX)); then
        pids=()
        subshells=()
        mkdir -p "$WORK/kubectl-$n"
        for ((i = 0; i < n; i++)); do
            ( HOME=$WORK KUBECACHEDIR=$WORK/cache exec "$KUBECTL" --kubeconfig "$WORK/fleet-$n.kc" \
                --context "c-$i" get pods -A -w -o name 2>/dev/null | sed -u "s|^|c-$i/|" ) \
                >"$WORK/kubectl-$n/$i.out" &
            subshells+=($!)
        done
        sleep 0.5
        mapfile -t pids < <(pgrep -f -- "--kubeconfig $WORK/fleet-$n.kc --context" || true)
        sleep "$((SECS - 1))"
        sample=$(proc_sample "${pids[@]}")
        kill "${pids[@]}" 2>/dev/null || true
        wait "${subshells[@]}" 2>/dev/null || true
        events=$(cat "$WORK/kubectl-$n"/*.out | wc -l)
        listed=$(for f in "$WORK/kubectl-$n"/*.out; do [[ -s $f ]] && echo; done | wc -l)
        report "kubectl" "$n" "$listed/$n" "$sample" "$events"
    fi
done
echo "(kw: one process; kubectl: N processes, summed; all-listed-s for kubectl is how many had printed; churn $RATE/s over TLS, one chunk per event; $SECS s each)"
