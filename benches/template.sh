#!/usr/bin/env bash
# Go templates over a big list (issue 45, item 5): `{{len $.items}}` read at each item, which
# copied the whole list each time before. kw and kubectl run the same template over the same
# `kw sim --flood-list N` list, in alternation, RUNS times; medians of wall time and peak RSS.
#
#   benches/template.sh                 # 2,000 and 4,000 Pods
#   SIZES="1000" benches/template.sh
#
# Environment: KW (default target/release/kw, built if missing), OLD (a second kw build to
# measure beside it, optional), KUBECTL (default: the pinned reference kubectl, else kubectl on
# PATH), RUNS (default 3), SIZES (default "2000 4000").
# Nothing here asserts on time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
SIZES=${SIZES:-2000 4000}
if [[ -z "${KW:-}" ]]; then
    cargo build --release --quiet
    KW=target/release/kw
fi
KUBECTL=${KUBECTL:-${CARGO_TARGET_DIR:-target}/reference-tools/bin/kubectl}
[[ -x "$KUBECTL" ]] || KUBECTL=$(command -v kubectl)
# shellcheck disable=SC2016 # Go's `$`, not the shell's
TEMPLATE='{{range $i,$p := .items}}{{$p.metadata.name}} of {{len $.items}}{{"\n"}}{{end}}'

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-template.XXXXXX")
SIM_PID=
cleanup() {
    [[ -n "$SIM_PID" ]] && kill "$SIM_PID" 2> /dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run LABEL PROGRAM...: RUNS times; appends "wall rss_kb" lines to $WORK/LABEL
measure() {
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" --kubeconfig "$WORK/kubeconfig" \
        get pods -n flood -o go-template="$TEMPLATE" > "$WORK/$label.out" 2> /dev/null
    cat "$WORK/time" >> "$WORK/$label"
}

for size in $SIZES; do
    "$KW" sim --http --empty --flood 0 --flood-list "$size" \
        --kubeconfig-out "$WORK/kubeconfig" > "$WORK/sim.out" 2>&1 &
    SIM_PID=$!
    for _ in $(seq 50); do grep -q ready "$WORK/sim.out" 2> /dev/null && break; sleep 0.1; done
    rm -f "$WORK"/kw "$WORK"/kubectl "$WORK"/old
    for _ in $(seq "$RUNS"); do
        measure kw env HOME="$WORK" "$KW"
        measure kubectl env HOME="$WORK" "$KUBECTL"
        [[ -n "${OLD:-}" ]] && measure old env HOME="$WORK" "$OLD"
    done
    cmp -s "$WORK/kw.out" "$WORK/kubectl.out" || echo "warning: kw's output differs from kubectl's" >&2
    kw_s=$(cut -d' ' -f1 "$WORK/kw" | median)
    kubectl_s=$(cut -d' ' -f1 "$WORK/kubectl" | median)
    printf '%5d Pods: kw %6.2f s %6d KiB | kubectl %6.2f s %6d KiB | kubectl/kw %.1f×' "$size" \
        "$kw_s" "$(cut -d' ' -f2 "$WORK/kw" | median)" \
        "$kubectl_s" "$(cut -d' ' -f2 "$WORK/kubectl" | median)" \
        "$(awk -v a="$kubectl_s" -v b="$kw_s" 'BEGIN {print (b > 0 ? a / b : 0)}')"
    if [[ -n "${OLD:-}" ]]; then
        printf ' | old kw %6.2f s' "$(cut -d' ' -f1 "$WORK/old" | median)"
    fi
    printf '\n'
    kill "$SIM_PID"
    wait "$SIM_PID" 2> /dev/null || true
    SIM_PID=
done
