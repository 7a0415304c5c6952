#!/usr/bin/env bash
# Whole-process benchmark: kw against kubectl (and curl, the transport ceiling) on the same
# `kw sim --http --flood` streams, in alternation, several runs, medians and kw/kubectl ratios.
# Watch floods run twice: one HTTP chunk per event (what kube-apiserver sends; reported first)
# and --flood-batched (large chunks: the client's ceiling when the server is never the limit).
#
#   benches/bench.sh            # the full run (under 10 minutes on a 2-core machine)
#   benches/bench.sh --quick    # "does it still run": tiny floods, one run, seconds
#
# Environment: KW (default target/release/kw, built if missing), SIM (the simulator command,
# default "$KW sim"; set it to measure an older kw build against today's sim), KUBECTL (default
# /usr/bin/kubectl; scenarios skip it when absent), RUNS (default 3), EVENTS (default 50000),
# LIST (default 20000), ENDLESS (default 1000000; 0 skips the endless-watch check).
# Needs bash, awk, sort, /usr/bin/time and curl; strace (optional) for start-up latency.
#
# Every figure is a median over RUNS runs; ratios compare kw with kubectl measured in the same
# invocation. Nothing here asserts on time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
[[ "${1:-}" == "--quick" ]] && QUICK=1
if ((QUICK)); then
    RUNS=${RUNS:-1} EVENTS=${EVENTS:-2000} LIST=${LIST:-300} ENDLESS=${ENDLESS:-0}
else
    RUNS=${RUNS:-3} EVENTS=${EVENTS:-50000} LIST=${LIST:-20000} ENDLESS=${ENDLESS:-1000000}
fi
KUBECTL=${KUBECTL:-/usr/bin/kubectl}
if [[ -z "${KW:-}" ]]; then
    cargo build --release --quiet
    KW=target/release/kw
fi
read -r -a SIM_CMD <<<"${SIM:-$KW sim}"
HAVE_KUBECTL=0
[[ -x "$KUBECTL" ]] && HAVE_KUBECTL=1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-bench.XXXXXX")
RESULTS=$WORK/results # lines: label wall_s cpu_s rss_kb first_row_s
SIM_PIDS=()
cleanup() {
    for pid in "${SIM_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_sim NAME ARGS...: a `kw sim --http` in the background; sets URL and writes $WORK/NAME.kc.
start_sim() {
    local name=$1
    shift
    "${SIM_CMD[@]}" --http "$@" --kubeconfig-out "$WORK/$name.kc" </dev/null >"$WORK/$name.out" 2>&1 &
    SIM_PIDS+=($!)
    for _ in $(seq 100); do
        if grep -q '^ready ' "$WORK/$name.out" 2>/dev/null; then
            URL=$(awk '/^ready /{print $2}' "$WORK/$name.out")
            return 0
        fi
        sleep 0.1
    done
    echo "kw sim $* did not become ready" >&2
    exit 1
}

now_ns() { date +%s%N; }

# run LABEL CMD...: one measured run, stdout to /dev/null. kw ends a flood with the sim's
# "flood ended" 400 (exit 6): kw resumes watches, so that answer is how a flood run ends.
run() {
    local label=$1
    shift
    local start end
    start=$(now_ns)
    set +e
    /usr/bin/time -f "%U %S %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/err"
    local code=$?
    set -e
    end=$(now_ns)
    check "$label" "$code"
    read -r user sys rss < <(tail -n 1 "$WORK/time")
    awk -v l="$label" -v s="$start" -v e="$end" -v u="$user" -v y="$sys" -v r="$rss" \
        'BEGIN { printf "%s %.4f %.3f %d -\n", l, (e - s) / 1e9, u + y, r }' >>"$RESULTS"
}

# run_first LABEL CMD...: like run, with the time to the first byte of output.
run_first() {
    local label=$1
    shift
    local start end first
    start=$(now_ns)
    set +e
    { /usr/bin/time -f "%U %S %M" -o "$WORK/time" "$@" 2>"$WORK/err"; echo $? >"$WORK/code"; } |
        { head -c 1 >/dev/null; now_ns >"$WORK/first"; cat >/dev/null; }
    set -e
    end=$(now_ns)
    check "$label" "$(cat "$WORK/code")"
    first=$(cat "$WORK/first")
    read -r user sys rss < <(tail -n 1 "$WORK/time")
    awk -v l="$label" -v s="$start" -v e="$end" -v f="$first" -v u="$user" -v y="$sys" -v r="$rss" \
        'BEGIN { printf "%s %.4f %.3f %d %.4f\n", l, (e - s) / 1e9, u + y, r, (f - s) / 1e9 }' >>"$RESULTS"
}

check() {
    local label=$1 code=$2
    if [[ "$code" != 0 ]] && ! grep -q "the flood ended" "$WORK/err"; then
        echo "run $label failed (exit $code):" >&2
        head -n 5 "$WORK/err" >&2
        exit 1
    fi
}

# median LABEL FIELD: the median of one column (2 wall, 3 cpu, 4 rss, 5 first row).
median() {
    awk -v l="$1" -v f="$2" '$1 == l && $f != "-" { print $f }' "$RESULTS" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# report_stream LABEL EVENTS: events/s, CPU s per 10k events, peak RSS.
report_stream() {
    local label=$1 events=$2
    awk -v l="$label" -v n="$events" -v w="$(median "$label" 2)" -v c="$(median "$label" 3)" \
        -v r="$(median "$label" 4)" 'BEGIN {
            printf "  %-34s %12.0f events/s %9.4f CPU s/10k %8.1f MiB\n", l, n / w, c * 10000 / n, r / 1024 }'
}

# ratio WHAT KW KUBECTL EVENTS: how many times better kw is.
ratio_stream() {
    local kw=$1 kubectl=$2 events=$3
    awk -v kw="$kw" -v kc="$kubectl" -v w1="$(median "$kw" 2)" -v w2="$(median "$kubectl" 2)" \
        -v c1="$(median "$kw" 3)" -v c2="$(median "$kubectl" 3)" \
        -v r1="$(median "$kw" 4)" -v r2="$(median "$kubectl" 4)" 'BEGIN {
            printf "  ratio %-28s events/s x%.1f   CPU/event 1/%.1f   RSS 1/%.1f   (vs %s)\n",
                kw, w2 / w1, c2 / (c1 > 0 ? c1 : 0.001), r2 / r1, kc }'
}

ceiling() {
    local kw=$1 curl=$2
    awk -v kw="$kw" -v w1="$(median "$kw" 2)" -v w2="$(median "$curl" 2)" 'BEGIN {
        printf "  %-34s %.0f%% of the curl ceiling\n", kw, 100 * w2 / w1 }'
}

echo "kw benchmark: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)"
KUBECTL_VERSION=absent
if ((HAVE_KUBECTL)); then
    KUBECTL_VERSION=$("$KUBECTL" version --client 2>/dev/null | awk 'NR == 1 { print $3 }')
fi
echo "kw: $KW ($(git rev-parse --short HEAD 2>/dev/null || echo unknown)); kubectl: $KUBECTL_VERSION"
echo "CPU figures come from /usr/bin/time (10 ms resolution)"
echo "runs: $RUNS, flood: $EVENTS events, big list: $LIST pods"
echo

# ---- (a) and (b): a flood of MODIFIED events, in both framings -------------------------------
# stream_floods NAME TITLE SIM-ARGS...: (a) and (b) against one `kw sim --flood`; labels end in
# -NAME. Realistic framing (one HTTP chunk per event, as kube-apiserver sends a busy watch)
# first, then --flood-batched (~256 KiB chunks: the server is never the bottleneck).
stream_floods() {
    local name=$1 title=$2
    shift 2
    start_sim "flood-$name" --empty --flood "$EVENTS" "$@"
    export KUBECONFIG=$WORK/flood-$name.kc
    local pods="$URL/api/v1/namespaces/default/pods?watch=1"
    local table_accept='application/json;as=Table;v=v1;g=meta.k8s.io,application/json'
    local s=-$name
    for _ in $(seq "$RUNS"); do
        run curl-json$s curl -sN "$pods"
        run curl-table$s curl -sN -H "Accept: $table_accept" "$pods"
        run kw-jsonl$s "$KW" get pods -w -o jsonl
        run kw-jsonl-events$s "$KW" get pods -w -o jsonl --output-watch-events
        run kw-json$s "$KW" get pods -w -o json
        run kw-table-events$s "$KW" get pods -w --output-watch-events
        if ((HAVE_KUBECTL)); then
            run kubectl-json$s "$KUBECTL" get pods -w -o json
            run kubectl-table-events$s "$KUBECTL" get pods -w --output-watch-events
        fi
    done
    echo "(a) $EVENTS pod MODIFIED events, JSON to /dev/null; $title"
    for label in curl-json kw-jsonl kw-jsonl-events kw-json kubectl-json; do
        grep -q "^$label$s " "$RESULTS" && report_stream "$label$s" "$EVENTS"
    done
    if ((HAVE_KUBECTL)); then
        ratio_stream kw-jsonl$s kubectl-json$s "$EVENTS"
        ratio_stream kw-jsonl-events$s kubectl-json$s "$EVENTS"
        ratio_stream kw-json$s kubectl-json$s "$EVENTS"
    fi
    ceiling kw-jsonl$s curl-json$s
    ceiling kw-jsonl-events$s curl-json$s
    echo
    echo "(b) $EVENTS events, table with --output-watch-events; $title"
    for label in curl-table kw-table-events kubectl-table-events; do
        grep -q "^$label$s " "$RESULTS" && report_stream "$label$s" "$EVENTS"
    done
    if ((HAVE_KUBECTL)); then
        ratio_stream kw-table-events$s kubectl-table-events$s "$EVENTS"
    fi
    ceiling kw-table-events$s curl-table$s
    echo
}
stream_floods per-event "one HTTP chunk per event (as kube-apiserver sends)"
stream_floods batched "--flood-batched: ~256 KiB chunks (server never the bottleneck)" --flood-batched

# ---- (c): a big initial list, then a short watch ----------------------------------------------
start_sim biglist --flood-list "$LIST" --flood 1000
export KUBECONFIG=$WORK/biglist.kc
for _ in $(seq "$RUNS"); do
    run_first kw-list-table "$KW" get pods -w
    run_first kw-list-json "$KW" get pods -w -o json
    run_first kw-list-jsonl "$KW" get pods -w -o jsonl
    if ((HAVE_KUBECTL)); then
        run_first kubectl-list-table "$KUBECTL" get pods -w
        run_first kubectl-list-json "$KUBECTL" get pods -w -o json
    fi
done
echo "(c) $LIST pods listed, then 1000 events watched (output through a pipe)"
for label in kw-list-table kw-list-json kw-list-jsonl kubectl-list-table kubectl-list-json; do
    grep -q "^$label " "$RESULTS" || continue
    printf "  %-34s first row %7.3f s   total %7.3f s   CPU %7.3f s   %8.1f MiB\n" "$label" \
        "$(median "$label" 5)" "$(median "$label" 2)" "$(median "$label" 3)" \
        "$(awk -v r="$(median "$label" 4)" 'BEGIN { print r / 1024 }')"
done
if ((HAVE_KUBECTL)); then
    for pair in "kw-list-table kubectl-list-table" "kw-list-json kubectl-list-json" \
        "kw-list-jsonl kubectl-list-json"; do
        set -- $pair
        awk -v kw="$1" -v kc="$2" -v f1="$(median "$1" 5)" -v f2="$(median "$2" 5)" \
            -v w1="$(median "$1" 2)" -v w2="$(median "$2" 2)" \
            -v r1="$(median "$1" 4)" -v r2="$(median "$2" 4)" 'BEGIN {
                printf "  ratio %-28s first row 1/%.1f   total 1/%.1f   RSS 1/%.1f   (vs %s)\n",
                    kw, f2 / f1, w2 / w1, r2 / r1, kc }'
    done
fi
echo

# ---- (d): start-up: `get pods` of 10 pods, cold and with the discovery caches -----------------
start_sim small --flood-list 10
export KUBECONFIG=$WORK/small.kc
for _ in $(seq "$RUNS"); do
    rm -rf "$WORK/cache"
    XDG_CACHE_HOME=$WORK/cache run kw-get-cold "$KW" get pods
    XDG_CACHE_HOME=$WORK/cache run kw-get-warm "$KW" get pods
    if ((HAVE_KUBECTL)); then
        rm -rf "$WORK/kcache"
        run kubectl-get-cold "$KUBECTL" get pods --cache-dir "$WORK/kcache"
        run kubectl-get-warm "$KUBECTL" get pods --cache-dir "$WORK/kcache"
    fi
done
echo "(d) get pods (10 pods), process start to exit"
for label in kw-get-cold kw-get-warm kubectl-get-cold kubectl-get-warm; do
    grep -q "^$label " "$RESULTS" || continue
    printf "  %-34s %8.1f ms   CPU %6.1f ms   %6.1f MiB\n" "$label" \
        "$(awk -v w="$(median "$label" 2)" 'BEGIN { print w * 1000 }')" \
        "$(awk -v c="$(median "$label" 3)" 'BEGIN { print c * 1000 }')" \
        "$(awk -v r="$(median "$label" 4)" 'BEGIN { print r / 1024 }')"
done
# From execve to the first connect(): the start-up cost before the first request.
first_request_ms() {
    strace --seccomp-bpf -f -ttt -e trace=execve,connect -o "$WORK/strace" "$@" >/dev/null 2>&1 || true
    awk '/execve\(/ && !s { s = $2 } /connect\(/ && !c { c = $2 } END { printf "%.1f", (c - s) * 1000 }' "$WORK/strace"
}
if command -v strace >/dev/null; then
    for _ in $(seq "$RUNS"); do
        echo "kw-first-request $(first_request_ms "$KW" get pods)" >>"$WORK/first"
        if ((HAVE_KUBECTL)); then
            echo "kubectl-first-request $(first_request_ms "$KUBECTL" get pods --cache-dir "$WORK/kcache")" >>"$WORK/first"
        fi
    done
    for label in kw-first-request kubectl-first-request; do
        grep -q "^$label " "$WORK/first" || continue
        printf "  %-34s %8s ms (under strace, warm caches)\n" "$label" \
            "$(awk -v l="$label" '$1 == l { print $2 }' "$WORK/first" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
    done
fi
echo

# ---- (e): an endless watch stays flat; an idle watch costs nothing -----------------------------
if ((ENDLESS > 0)); then
    start_sim endless --empty --flood "$ENDLESS"
    export KUBECONFIG=$WORK/endless.kc
    run kw-endless "$KW" get pods -w -o jsonl --output-watch-events
    echo "(e) $ENDLESS events with -o jsonl --output-watch-events"
    report_stream kw-endless "$ENDLESS"
    awk -v a="$(median kw-jsonl-events-per-event 4)" -v b="$(median kw-endless 4)" -v n="$EVENTS" -v m="$ENDLESS" 'BEGIN {
        printf "  peak RSS after %d events %.1f MiB, after %d events %.1f MiB\n", n, a / 1024, m, b / 1024 }'
fi
start_sim idle --empty
export KUBECONFIG=$WORK/idle.kc
run kw-idle "$KW" get pods -w --request-timeout=3s
echo "  an idle 3 s watch: CPU $(awk -v c="$(median kw-idle 3)" 'BEGIN { print c * 1000 }') ms in total (start-up included)"
