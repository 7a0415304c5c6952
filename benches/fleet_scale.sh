#!/usr/bin/env bash
# What a fleet of N contexts costs one kw (issues #47 and #59), measured before anything is
# changed, in two shapes printed side by side in one run:
#
#   shared    one `kw sim --churn RATE` over TLS (the seeded world, 24 Pods; churn events framed
#             one HTTP chunk per event, as kube-apiserver sends them) and N contexts all pointing
#             at it with one user: kw shares one TLS configuration and one discovery.
#   distinct  S = N/2 separate sims (`kw sim --churn DRATE` each, its own URL and CA) and N
#             contexts, two a sim: c-2k with the sim's bearer token, c-(2k+1) with its client
#             certificate, so no two contexts share a (server, user) pair, as in a real fleet of
#             different clusters: each context its own TLS configuration, handshake and discovery.
#
# Each runs `kw --context 'c-*' get pods -A -w -o name` for SECS seconds. Per N and shape: the
# seconds until every context's first list was printed; after SECS the process's RSS, peak RSS,
# threads, open sockets, CPU and events printed; CPU milliseconds per event over the whole run
# and over the events after the lists (the steady cost, without the start); and the servers'
# CPU over the run and until the lists were printed (on one machine the sims' CPU is part of
# the budget). Beside it, for the shared shape, N separate `kubectl get pods -A -w` (one process
# per cluster, as kubectl-foreach runs them) for N up to KUBECTL_MAX, summed.
#
#   benches/fleet_scale.sh                              # NS="50 200 500 1000" SECS=20, both shapes
#   NS="200 1000" SECS=30 KUBECTL_MAX=0 benches/fleet_scale.sh
#   SHAPES=distinct NS=200 benches/fleet_scale.sh
#
# Environment: KW (default target/release/kw, built if missing), KUBECTL (default the pinned
# reference kubectl of .ci/reference-tools, else kubectl on PATH), RATE (the shared sim's churn,
# events per second, default 5: every context sees every event), DRATE (each distinct sim's
# churn, default 0.2: each event is seen by its sim's two contexts), SHAPES (default
# "shared distinct"), WARM (default 1: the distinct shape once more with the discovery its cold
# run cached, row kw-warm; every other run starts with an empty cache). Needs python3 (the reader that times each context's first line and writes
# the distinct kubeconfig) and /proc; nothing else (no farm-bench). The distinct shape starts
# max(NS)/2 sims once, up front (about 10 MiB each). Nothing here asserts on time: it prints
# numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

NS=${NS:-50 200 500 1000}
SECS=${SECS:-20}
RATE=${RATE:-5}
DRATE=${DRATE:-0.2}
SHAPES=${SHAPES:-shared distinct}
WARM=${WARM:-1}
KUBECTL_MAX=${KUBECTL_MAX:-50}
if [[ -z "${KW:-}" ]]; then
    cargo build --release --quiet
    KW=$PWD/target/release/kw
fi
if [[ -z "${KUBECTL:-}" ]]; then
    KUBECTL=$(.ci/reference-tools 2>/dev/null)/kubectl || KUBECTL=$(command -v kubectl || true)
fi
# A thousand contexts hold a thousand sockets, and so does the shared sim: past a soft limit of
# 1,024 (kw raises its own since issue 59; the sims and older kw builds do not).
ulimit -S -n "$(ulimit -H -n)" 2>/dev/null || true
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kw-fleet.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_sim OUT RATE SEED: a sim in the background writing OUT.kc and OUT.out; its pid in PIDS.
start_sim() {
    "$KW" sim --churn "$2" --seed "$3" --kubeconfig-out "$1.kc" </dev/null >"$1.out" 2>&1 &
    PIDS+=($!)
}
# wait_ready OUT...: until each sim has said `ready` (at most 60 s in all).
wait_ready() {
    local out
    for out in "$@"; do
        for _ in $(seq 1 600); do
            grep -q ready "$out.out" 2>/dev/null && break
            sleep 0.1
        done
        grep -q ready "$out.out" || { echo "sim $out did not start: $(cat "$out.out")" >&2; exit 1; }
    done
}

shared_sim=() distinct_sims=() distinct_pids=()
if [[ " $SHAPES " == *" shared "* ]]; then
    start_sim "$WORK/sim" "$RATE" 1
    shared_sim=("${PIDS[-1]}")
    wait_ready "$WORK/sim"
fi
if [[ " $SHAPES " == *" distinct "* ]]; then
    most=0
    for n in $NS; do ((n > most)) && most=$n; done
    for ((s = 0; s < (most + 1) / 2; s++)); do
        start_sim "$WORK/d-$s" "$DRATE" "$((s + 2))"
        distinct_sims+=("$WORK/d-$s")
        distinct_pids+=("${PIDS[-1]}")
    done
    wait_ready "${distinct_sims[@]}"
fi

# shared_kubeconfig N OUT: the shared sim's cluster and admin user, contexts c-0 .. c-(N-1).
shared_kubeconfig() {
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

# distinct_kubeconfig N OUT: contexts c-0 .. c-(N-1) over the first N/2 distinct sims, each
# sim its own cluster (URL and CA); c-2k the sim's admin token, c-(2k+1) its client certificate
# (`kw sim --kubeconfig-out` writes both users), each context a user of its own.
distinct_kubeconfig() {
    python3 - "$1" "$2" "${distinct_sims[@]}" <<'EOF'
import re, sys
n, out, sims = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
def field(text, key):
    return re.search(r"^\s*" + key + r": (\S+)$", text, re.M).group(1)
clusters, users, contexts = [], [], []
for i in range(n):
    s = i // 2
    text = open(sims[s] + ".kc").read()
    if i % 2 == 0:
        clusters.append(f"- name: s-{s}\n  cluster:\n    server: {field(text, 'server')}\n"
                        f"    certificate-authority-data: {field(text, 'certificate-authority-data')}\n")
        token = field(text.split("- name: admin\n", 1)[1], "token")
        users.append(f"- name: u-{i}\n  user:\n    token: {token}\n")
    else:
        cert = text.split("- name: cert-user\n", 1)[1]
        users.append(f"- name: u-{i}\n  user:\n"
                     f"    client-certificate-data: {field(cert, 'client-certificate-data')}\n"
                     f"    client-key-data: {field(cert, 'client-key-data')}\n")
    contexts.append(f"- name: c-{i}\n  context:\n    cluster: s-{s}\n    user: u-{i}\n")
open(out, "w").write("apiVersion: v1\nkind: Config\npreferences: {}\nclusters:\n"
                     + "".join(clusters) + "contexts:\n" + "".join(contexts)
                     + "current-context: c-0\nusers:\n" + "".join(users))
EOF
}

# Reads `CONTEXT/kind/name` lines: when every one of N contexts has printed, "SECONDS LINES"
# (since start; lines so far) go to FILE; the count of lines goes to FILE.lines at the end.
READER='
import sys, time
n, out, start = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
seen, lines, done = set(), 0, None
for line in sys.stdin:
    lines += 1
    seen.add(line.split("/", 1)[0])
    if done is None and len(seen) >= n:
        done = time.time() - start
        open(out, "w").write(f"{done:.2f} {lines}\n")
open(out + ".lines", "w").write(f"{lines}\n")
'

# proc_sample PID...: summed RSS (KiB), peak RSS (KiB), threads, sockets and CPU seconds.
proc_sample() {
    local rss=0 peak=0 threads=0 sockets=0 ticks=0 pid
    for pid in "$@"; do
        [[ -r /proc/$pid/status ]] || continue
        rss=$((rss + $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")))
        peak=$((peak + $(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")))
        threads=$((threads + $(awk '/^Threads/ {print $2}' "/proc/$pid/status")))
        sockets=$((sockets + $(find "/proc/$pid/fd" -lname 'socket:*' 2>/dev/null | wc -l)))
        ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    echo "$rss $peak $threads $sockets $(cpu_of_ticks "$ticks")"
}
cpu_of_ticks() { awk -v t="$1" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}'; }
# cpu PID...: summed CPU seconds of the processes, one read of /proc (hundreds of sims).
cpu() {
    (($# == 0)) && { echo 0.00; return; }
    local stats=()
    for pid in "$@"; do stats+=("/proc/$pid/stat"); done
    cpu_of_ticks "$(cat "${stats[@]}" 2>/dev/null | awk '{t += $14 + $15} END {print t + 0}')"
}

printf '%-12s %5s %4s %9s %8s %8s %7s %7s %7s %7s %9s %10s %10s %9s %10s\n' client N S \
    listed-s RSS-MiB peak-MiB threads sockets CPU-s events ms/event ms/ev-after CPU-listed \
    srv-CPU-s srv-listed
# report CLIENT N S LISTED SAMPLE EVENTS [CPU-AT-LISTED LINES-AT-LISTED SERVER-CPU SERVER-AT-LISTED]
report() {
    local client=$1 n=$2 s=$3 listed=$4 sample=$5 events=$6
    local at_cpu=${7:--} at_lines=${8:--} server=${9:--} server_listed=${10:--}
    read -r rss peak threads sockets cpu_s <<<"$sample"
    awk -v c="$client" -v n="$n" -v s="$s" -v l="$listed" -v r="$rss" -v p="$peak" -v t="$threads" \
        -v k="$sockets" -v cpu="$cpu_s" -v e="$events" -v ac="$at_cpu" -v al="$at_lines" \
        -v sv="$server" -v sl="$server_listed" 'BEGIN {
        after = (ac != "-" && e - al > 0) ? sprintf("%.3f", (cpu - ac) * 1000 / (e - al)) : "-"
        printf "%-12s %5d %4s %9s %8.1f %8.1f %7d %7d %7.2f %7d %9s %10s %10s %9s %10s\n", c, n, s,
            l, r / 1024, p / 1024, t, k, cpu, e, (e > 0 ? sprintf("%.3f", cpu * 1000 / e) : "-"),
            after, ac, sv, sl }'
}

# run_kw LABEL N S KUBECONFIG HOME SERVER-PID...: one kw over the fleet for SECS, reported. HOME
# holds kw's discovery cache: a new one is a cold start (every context reads its discovery).
run_kw() {
    local label=$1 n=$2 s=$3 kubeconfig=$4 home=$5
    shift 5
    mkdir -p "$home"
    local servers=("$@") listed="$WORK/listed-$label-$n"
    rm -f "$listed" "$listed.lines"
    local server_start
    server_start=$(cpu "${servers[@]}")
    local start
    start=$(date +%s.%N)
    ( HOME=$home exec "$KW" --kubeconfig "$kubeconfig" --context 'c-*' get pods -A -w -o name \
        2>"$WORK/kw-$label-$n.err" ) |
        python3 -c "$READER" "$n" "$listed" "$start" &
    local reader=$!
    sleep 0.3
    local kw_pid
    kw_pid=$(pgrep -n -f -- "--kubeconfig $kubeconfig" || true)
    # The moment every context has listed: kw's CPU and the servers' then.
    local at_cpu=- server_listed=- ticks_end
    ticks_end=$(awk -v s="$start" -v d="$SECS" 'BEGIN {printf "%.2f", s + d - 0.5}')
    while [[ ! -s $listed ]] && awk -v e="$ticks_end" -v now="$(date +%s.%N)" 'BEGIN {exit !(now < e)}'; do
        sleep 0.05
    done
    if [[ -s $listed ]]; then
        at_cpu=$(cpu "$kw_pid")
        server_listed=$(awk -v a="$(cpu "${servers[@]}")" -v b="$server_start" 'BEGIN {printf "%.2f", a - b}')
    fi
    local left
    left=$(awk -v e="$ticks_end" -v now="$(date +%s.%N)" 'BEGIN {d = e - now; printf "%.2f", (d > 0 ? d : 0)}')
    sleep "$left"
    local sample server
    sample=$(proc_sample "$kw_pid")
    server=$(awk -v a="$(cpu "${servers[@]}")" -v b="$server_start" 'BEGIN {printf "%.2f", a - b}')
    kill "$kw_pid" 2>/dev/null || true
    wait "$reader" 2>/dev/null || true
    local seconds=never at_lines=-
    [[ -s $listed ]] && read -r seconds at_lines <"$listed"
    report "kw-$label" "$n" "$s" "$seconds" "$sample" "$(cat "$listed.lines" 2>/dev/null || echo 0)" \
        "$at_cpu" "$at_lines" "$server" "$server_listed"
    if grep -q . "$WORK/kw-$label-$n.err"; then
        echo "  kw's stderr ($label, N=$n): $(sort "$WORK/kw-$label-$n.err" | uniq -c | sort -rn | head -3 | tr '\n' ';')"
    fi
}

for n in $NS; do
    if ((${#shared_sim[@]})); then
        shared_kubeconfig "$n" "$WORK/fleet-$n.kc"
        run_kw shared "$n" 1 "$WORK/fleet-$n.kc" "$WORK/home-shared-$n" "${shared_sim[@]}"
    fi
    if ((${#distinct_sims[@]})); then
        s=$(((n + 1) / 2))
        distinct_kubeconfig "$n" "$WORK/distinct-$n.kc"
        run_kw distinct "$n" "$s" "$WORK/distinct-$n.kc" "$WORK/home-distinct-$n" \
            "${distinct_pids[@]:0:s}"
        # Again with the discovery the cold run cached: what reading it cost the start.
        if ((WARM)); then
            run_kw warm "$n" "$s" "$WORK/distinct-$n.kc" "$WORK/home-distinct-$n" \
                "${distinct_pids[@]:0:s}"
        fi
    fi

    if ((${#shared_sim[@]})) && [[ -x "$KUBECTL" ]] && ((n <= KUBECTL_MAX)); then
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
        report "kubectl" "$n" 1 "$listed/$n" "$sample" "$events"
    fi
done
echo "(kw: one process; kubectl: N processes, summed, listed-s = how many had printed; S: servers;"
echo " shared: one sim, churn $RATE/s, every context sees every event; distinct: S sims, churn $DRATE/s each,"
echo " two contexts a sim; over TLS, one chunk per event; $SECS s each. ms/event: kw's CPU ms per line"
echo " printed; ms/ev-after: over the lines after every first list; CPU-listed: kw's CPU seconds until"
echo " every first list was printed; srv-CPU-s: the servers' CPU seconds over the run, srv-listed: until"
echo " every first list was printed; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
