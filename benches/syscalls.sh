#!/usr/bin/env bash
# System calls per event on a watch flood: `strace -f -c` of `kw get pods -w` (stdout through a
# pipe) against `kw sim --http --empty --flood EVENTS` (one HTTP chunk per event, as
# kube-apiserver frames a busy watch), in jsonl, table (--output-watch-events) and json.
# Counts read, write, recvfrom, sendto, readv and writev; prints calls per event.
#
#   benches/syscalls.sh                      # target/release/kw (built if missing)
#   KW=/path/to/old/kw benches/syscalls.sh   # another build, against this build's sim
#
# Environment: KW, SIM (default target/release/kw), EVENTS (default 20000). Needs strace.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${KW:-}" || -z "${SIM:-}" ]]; then
    [[ -x target/release/kw ]] || cargo build --release --quiet
fi
KW=${KW:-target/release/kw} SIM=${SIM:-target/release/kw} EVENTS=${EVENTS:-20000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-syscalls.XXXXXX")
SIM_PID=
cleanup() {
    [[ -n "$SIM_PID" ]] && kill "$SIM_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

printf "%-10s %8s %8s %8s %10s\n" format reads writes events per-event
for format in jsonl table json; do
    case $format in
    jsonl) args=(-o jsonl) ;;
    table) args=(--output-watch-events) ;;
    json) args=(-o json) ;;
    esac
    "$SIM" sim --http --empty --flood "$EVENTS" --kubeconfig-out "$WORK/kc" </dev/null >"$WORK/sim.out" 2>&1 &
    SIM_PID=$!
    for _ in $(seq 100); do
        grep -q '^ready ' "$WORK/sim.out" 2>/dev/null && break
        sleep 0.1
    done
    # kw ends a flood on the sim's "flood ended" 400 (exit 6), as in bench.sh.
    KUBECONFIG=$WORK/kc strace -f -c -o "$WORK/strace" "$KW" get pods -w "${args[@]}" \
        2>"$WORK/err" | cat >/dev/null || true
    kill "$SIM_PID" 2>/dev/null || true
    wait "$SIM_PID" 2>/dev/null || true
    SIM_PID=
    awk -v events="$EVENTS" -v format="$format" '
        $NF ~ /^(read|recvfrom|readv)$/ { reads += $4 }
        $NF ~ /^(write|sendto|writev)$/ { writes += $4 }
        END { printf "%-10s %8d %8d %8d %10.3f\n", format, reads, writes, events, (reads + writes) / events }
    ' "$WORK/strace"
done
