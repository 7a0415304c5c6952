#!/usr/bin/env bash
# Record kubectl's `rollout status` against `kw sim --rollout PLOT:NAME[,PLOT:NAME...]` as golden files:
# NAME.out (stdout), NAME.err (stderr, if any: kubectl's error lines) and NAME.code (exit status and
# seconds to the verdict). Usage: tests/golden/record_rollout.sh [CASE...]
# (default: every case in rollout_cases.tsv). KUBECTL=/path/to/kubectl chooses kubectl (default: the pinned v1.37.1 of .ci/reference-tools).
# kubectl starts as soon as the sim is ready, within the first beat of the story, so it sees
# every state the story goes through, as kw does in the tests.
# Side by side: `CLIENT=kw OUT=/tmp/kw tests/golden/record_rollout.sh` runs kw with the same
# arguments instead, writing its files to OUT (never to the golden files).
set -euo pipefail
# shellcheck source=tests/golden/sim_lib.sh
. "$(dirname "$0")/sim_lib.sh"

run_case() {
  local name=$1 rollout=$2 beat=$3; shift 3
  local tmp; tmp=$(mktemp -d)
  local story=()
  if [ "$rollout" != - ]; then
    local each
    IFS=, read -ra each <<<"$rollout"
    for r in "${each[@]}"; do story+=(--rollout "$r"); done
    story+=(--rollout-beat "$beat")
  fi
  sim_start "$tmp" "${story[@]}"
  record_client "$tmp" "$name" "$@"
  sim_stop
  if [ -s "$tmp/stderr" ]; then cp "$tmp/stderr" "$out/$name.err"; else rm -f "$out/$name.err"; fi
  rm -rf "$tmp"
}

while IFS=$'\t' read -r name rollout beat args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$rollout" "$beat" $args
done <"$golden/rollout_cases.tsv"
stamp_version rollout_cases.tsv
