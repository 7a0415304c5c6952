#!/usr/bin/env bash
# Record kubectl's `wait` against `kw sim` as golden files: NAME.out (stdout), NAME.err (its
# stderr, if any, without client-go's log lines) and NAME.code (exit status and seconds to the
# verdict).
# Usage: tests/golden/record_wait.sh [CASE...] (default: every case in wait_cases.tsv).
# KUBECTL=/path/to/kubectl chooses kubectl (v1.32). A case may play a rollout story
# (`kw sim --rollout PLOT:NAME`) and send the sim one control line (create, update, delete)
# some seconds after kubectl starts: the condition is then met later, while kubectl waits.
# Side by side: `CLIENT=kw OUT=/tmp/kw tests/golden/record_wait.sh` runs kw with the same
# arguments instead, writing its files to OUT (never to the golden files).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
kw=${CARGO_TARGET_DIR:-target}/debug/kw
kubectl=${KUBECTL:-kubectl}
[ "${CLIENT:-kubectl}" = kw ] && kubectl=$kw
golden=tests/golden
out=${OUT:-$golden}
mkdir -p "$out"

run_case() {
  local name=$1 rollout=$2 beat=$3 after=$4 op=$5; shift 5
  local tmp; tmp=$(mktemp -d)
  mkfifo "$tmp/ctl"
  local story=()
  # Without a story, the clock is frozen as record.sh freezes it: -o json|yaml print the
  # same creationTimestamps every time.
  if [ "$rollout" = - ]; then story=(--clock 2026-01-01T12:00:00Z); else story=(--rollout "$rollout" --rollout-beat "$beat"); fi
  "$kw" sim "${story[@]}" --kubeconfig-out "$tmp/kubeconfig" <"$tmp/ctl" >"$tmp/sim.out" 2>"$tmp/sim.err" &
  local sim=$!
  exec 3>"$tmp/ctl"
  for _ in $(seq 200); do grep -q '^ready' "$tmp/sim.out" 2>/dev/null && break; sleep 0.01; done
  local sender=
  if [ "$op" != - ]; then
    (sleep "$after"; echo "$op" >&3) &
    sender=$!
  fi
  local code=0 start end
  start=$(date +%s.%N)
  HOME="$tmp" KUBECACHEDIR="$tmp/cache" "$kubectl" --kubeconfig "$tmp/kubeconfig" "$@" \
    >"$out/$name.out" 2>"$tmp/stderr" || code=$?
  end=$(date +%s.%N)
  [ -z "$sender" ] || wait "$sender" || true
  echo '{"op":"stop"}' >&3 || true
  exec 3>&-
  wait "$sim" || true
  # kubectl's lines, without client-go's log lines (`E1126 03:00:01.163207 ...`).
  grep -Ev '^[EIW][0-9]{4} ' "$tmp/stderr" >"$tmp/said" || true
  if [ -s "$tmp/said" ]; then cp "$tmp/said" "$out/$name.err"; else rm -f "$out/$name.err"; fi
  printf '%s %.1f\n' "$code" "$(echo "$end - $start" | bc)" >"$out/$name.code"
  echo "recorded $name (exit $code)"
  rm -rf "$tmp"
}

while IFS=$'\t' read -r name rollout beat after op args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$rollout" "$beat" "$after" "$op" $args
done <"$golden/wait_cases.tsv"
