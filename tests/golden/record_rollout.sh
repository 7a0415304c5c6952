#!/usr/bin/env bash
# Record kubectl's `rollout status` against `kw sim --rollout PLOT:NAME[,PLOT:NAME...]` as golden files:
# NAME.out (stdout), NAME.err (stderr, if any: kubectl's error lines) and NAME.code (exit status and
# seconds to the verdict). Usage: tests/golden/record_rollout.sh [CASE...]
# (default: every case in rollout_cases.tsv). KUBECTL=/path/to/kubectl chooses kubectl (v1.32).
# kubectl starts as soon as the sim is ready, within the first beat of the story, so it sees
# every state the story goes through, as kw does in the tests.
# Side by side: `CLIENT=kw OUT=/tmp/kw tests/golden/record_rollout.sh` runs kw with the same
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
  local name=$1 rollout=$2 beat=$3; shift 3
  local tmp; tmp=$(mktemp -d)
  mkfifo "$tmp/ctl"
  local story=()
  if [ "$rollout" != - ]; then
    local each
    IFS=, read -ra each <<<"$rollout"
    for r in "${each[@]}"; do story+=(--rollout "$r"); done
    story+=(--rollout-beat "$beat")
  fi
  "$kw" sim "${story[@]}" --kubeconfig-out "$tmp/kubeconfig" <"$tmp/ctl" >"$tmp/sim.out" 2>"$tmp/sim.err" &
  local sim=$!
  exec 3>"$tmp/ctl"
  for _ in $(seq 200); do grep -q '^ready' "$tmp/sim.out" 2>/dev/null && break; sleep 0.01; done
  local code=0 start end
  start=$(date +%s.%N)
  HOME="$tmp" KUBECACHEDIR="$tmp/cache" "$kubectl" --kubeconfig "$tmp/kubeconfig" "$@" \
    >"$out/$name.out" 2>"$tmp/stderr" || code=$?
  end=$(date +%s.%N)
  echo '{"op":"stop"}' >&3 || true
  exec 3>&-
  wait "$sim" || true
  if [ -s "$tmp/stderr" ]; then cp "$tmp/stderr" "$out/$name.err"; else rm -f "$out/$name.err"; fi
  printf '%s %.1f\n' "$code" "$(echo "$end - $start" | bc)" >"$out/$name.code"
  echo "recorded $name (exit $code)"
  rm -rf "$tmp"
}

while IFS=$'\t' read -r name rollout beat args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$rollout" "$beat" $args
done <"$golden/rollout_cases.tsv"
