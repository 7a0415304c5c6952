#!/usr/bin/env bash
# `kw logs` against the reference kubectl (1.37.1, .ci/reference-tools) on one `kw sim --http`
# (issue 62, point 5). Framing: the sim's follow sends one HTTP chunk per line, each written and
# flushed on its own (a syscall a line), as the kubelet's stream reaches a client through the
# API server; the printer behind it writes a line every EVERY.
#
# 1. Throughput: one Pod whose container prints a line every EVERY (default 5us: faster than
#    any reader here, so the reader is the bound); `CLIENT logs -f fast | head -n LINES`, the
#    clients in alternation, RUNS times; medians of lines/s (wall clock from start until head
#    has its LINES) and CPU (user+sys of the client, /usr/bin/time) per line. curl on the same
#    URL is the transport ceiling (what the sim can send).
# 2. Memory: PODS Pods printing a line every PERIOD; `kw logs -w -l app=bench` and
#    `kubectl logs -f -l app=bench --max-log-requests PODS` side by side for SECS seconds (the
#    issue asks 600), each one's RSS sampled every 10 s from /proc.
#
#   benches/logs.sh                       # LINES=200000 RUNS=3 PODS=50 SECS=600
#   SECS=30 RUNS=1 LINES=50000 benches/logs.sh   # a quick look
#
# Environment: KW (default target/release/kw, built if missing), KUBECTL (default the pinned
# reference kubectl), EVERY, LINES, RUNS, PODS, PERIOD (default 100ms), SECS. Needs bash, awk,
# sort, curl, /usr/bin/time and /proc. stern is Go and installs from no registry this machine
# reaches (no Go toolchain, no release download): it is not measured. Nothing here asserts on
# time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

EVERY=${EVERY:-5us}
LINES=${LINES:-200000}
RUNS=${RUNS:-3}
PODS=${PODS:-50}
PERIOD=${PERIOD:-100ms}
SECS=${SECS:-600}
if [[ -z "${KW:-}" ]]; then
    cargo build --release --quiet
    KW=$PWD/target/release/kw
fi
if [[ -z "${KUBECTL:-}" ]]; then
    KUBECTL=$PWD/target/reference-tools/bin/kubectl
    [[ -x "$KUBECTL" ]] || KUBECTL=$(.ci/reference-tools)/kubectl
fi
"$KUBECTL" version --client 2>/dev/null | head -n 1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-logs-bench.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

"$KW" sim --http --empty --rollout-beat 0.1 --kubeconfig-out "$WORK/kc" \
    </dev/null >"$WORK/sim.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
    grep -q '^ready ' "$WORK/sim.out" 2>/dev/null && break
    sleep 0.1
done
URL=$(awk '/^ready /{print $2}' "$WORK/sim.out")
export KUBECONFIG=$WORK/kc

# pod NAME EVERY [LABEL]: a Pod whose one container prints `main line N` every EVERY, forever.
pod() {
    cat <<EOF
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "default", "labels": {"app": "${3:-none}"}},
 "spec": {"restartPolicy": "Always", "containers": [{"name": "main", "image": "busybox",
   "env": [{"name": "KW_SIM_LOG_EVERY", "value": "$2"}]}]}}
EOF
}
running() {
    for _ in $(seq 300); do
        [[ "$("$KUBECTL" get pod "$1" -o 'jsonpath={.status.phase}')" == Running ]] && return 0
        sleep 0.1
    done
    echo "pod $1 never ran" >&2
    exit 1
}

echo "== 1. throughput: one Pod printing every $EVERY, $LINES lines through head, $RUNS runs"
pod fast "$EVERY" | "$KUBECTL" apply -f - >/dev/null
running fast
# Let the printer get ahead of every reader.
sleep 2

now_ns() { date +%s%N; }
# measure LABEL CMD...: CMD's stdout through head -n LINES; appends "label lines_per_s us_per_line".
measure() {
    local label=$1
    shift
    local start end
    start=$(now_ns)
    { /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" 2>"$WORK/err" || true; } |
        head -n "$LINES" >"$WORK/out"
    end=$(now_ns)
    local got
    got=$(wc -l <"$WORK/out")
    if ((got != LINES)); then
        echo "$label: $got lines of $LINES" >&2
        cat "$WORK/err" >&2
        exit 1
    fi
    read -r user sys < <(tail -n 1 "$WORK/time")
    awk -v l="$label" -v s="$start" -v e="$end" -v u="$user" -v y="$sys" -v n="$LINES" \
        'BEGIN { printf "%s %.0f %.3f\n", l, n / ((e - s) / 1e9), (u + y) * 1e6 / n }' \
        >>"$WORK/results"
}
for _ in $(seq "$RUNS"); do
    measure curl curl -sN "$URL/api/v1/namespaces/default/pods/fast/log?follow=true"
    measure kw "$KW" logs -f fast
    measure kubectl "$KUBECTL" logs -f fast
done
median() { # median LABEL FIELD
    awk -v l="$1" -v f="$2" '$1 == l { print $f }' "$WORK/results" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf '%-8s %12s %12s\n' client "lines/s" "CPU us/line"
for label in curl kw kubectl; do
    printf '%-8s %12s %12s\n' "$label" "$(median "$label" 2)" "$(median "$label" 3)"
done
awk -v a="$(median kw 2)" -v b="$(median kubectl 2)" -v c="$(median kw 3)" -v d="$(median kubectl 3)" \
    'BEGIN { printf "kw/kubectl: lines/s x%.2f, CPU per line x%.2f\n", a / b, c / d }'
"$KUBECTL" delete pod fast --wait=false >/dev/null

echo "== 2. memory: $PODS Pods printing every $PERIOD, followed $SECS s side by side"
for i in $(seq "$PODS"); do pod "bench-$i" "$PERIOD" bench; done |
    awk 'BEGIN { print "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [" }
         /^\{/ && NR > 1 { print "," } { print } END { print "]}" }' >"$WORK/pods.json"
"$KUBECTL" apply --validate=false -f "$WORK/pods.json" >/dev/null
running "bench-$PODS"
"$KW" logs -w -l app=bench >"$WORK/kw.lines" 2>"$WORK/kw.err" &
KW_PID=$!
PIDS+=("$KW_PID")
"$KUBECTL" logs -f -l app=bench --max-log-requests "$PODS" >"$WORK/kubectl.lines" 2>"$WORK/kubectl.err" &
KUBECTL_PID=$!
PIDS+=("$KUBECTL_PID")
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
cpu() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
printf '%6s %12s %12s\n' s "kw RSS KiB" "kubectl KiB"
for ((t = 10; t <= SECS; t += 10)); do
    sleep 10
    printf '%6d %12s %12s\n' "$t" "$(rss "$KW_PID")" "$(rss "$KUBECTL_PID")" | tee -a "$WORK/rss"
done
printf 'CPU s over the run: kw %s, kubectl %s\n' "$(cpu "$KW_PID")" "$(cpu "$KUBECTL_PID")"
kill "$KW_PID" "$KUBECTL_PID" 2>/dev/null || true
wait "$KW_PID" "$KUBECTL_PID" 2>/dev/null || true
printf 'lines: kw %s, kubectl %s\n' "$(wc -l <"$WORK/kw.lines")" "$(wc -l <"$WORK/kubectl.lines")"
awk 'NR == 1 { k0 = $2; c0 = $3 } { if ($2 > km) km = $2; if ($3 > cm) cm = $3; k1 = $2; c1 = $3 }
     END { printf "RSS KiB first/max/last: kw %d/%d/%d, kubectl %d/%d/%d\n", k0, km, k1, c0, cm, c1 }' \
    "$WORK/rss"
