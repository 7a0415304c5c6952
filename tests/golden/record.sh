#!/usr/bin/env bash
# Record kubectl's output against `kw sim` as golden files (tests/golden/*.out, *.err).
# Usage: tests/golden/record.sh [CASE...]   (default: every case in cases.tsv)
# Needs kubectl (KUBECTL=/path/to/kubectl to choose one). Each case gets a fresh simulator with
# the same seed and frozen clock, so resourceVersions, uids and ages are the same every time.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
kw=${CARGO_TARGET_DIR:-target}/debug/kw
kubectl=${KUBECTL:-kubectl}
golden=tests/golden
clock=2026-01-01T12:00:00Z

run_case() {
  local name=$1 compare=$2 scenario=$3; shift 3
  local tmp; tmp=$(mktemp -d)
  mkfifo "$tmp/ctl"
  "$kw" sim --clock "$clock" --kubeconfig-out "$tmp/kubeconfig" <"$tmp/ctl" >"$tmp/sim.out" 2>"$tmp/sim.err" &
  local sim=$!
  exec 3>"$tmp/ctl"
  for _ in $(seq 100); do grep -q '^ready' "$tmp/sim.out" 2>/dev/null && break; sleep 0.05; done
  local args=("$@")
  HOME="$tmp" KUBECACHEDIR="$tmp/cache" "$kubectl" --kubeconfig "$tmp/kubeconfig" "${args[@]}" \
    >"$golden/$name.out" 2>"$tmp/stderr" &
  local client=$!
  if [ "$scenario" = scenario ]; then
    sleep 2
    while IFS= read -r op; do echo "$op" >&3; sleep 0.3; done <"$golden/watch-scenario.jsonl"
  fi
  local code=0
  wait "$client" || code=$?
  echo '{"op":"stop"}' >&3 || true
  exec 3>&-
  wait "$sim" || true
  case "$compare" in
    out) [ "$code" = 0 ] || { echo "$name: kubectl exited $code" >&2; cat "$tmp/stderr" >&2; } ;;
    *) tail -n 1 "$tmp/stderr" >"$golden/$name.err" ;;
  esac
  [ "$compare" = err ] && rm -f "$golden/$name.out"
  echo "recorded $name (exit $code)"
  rm -rf "$tmp"
}

while IFS=$'\t' read -r name compare scenario args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$compare" "$scenario" $args
done <"$golden/cases.tsv"
