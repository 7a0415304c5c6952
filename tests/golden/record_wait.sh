#!/usr/bin/env bash
# Record kubectl's `wait` against `kw sim` as golden files: NAME.out (stdout), NAME.err (its
# stderr, if any, without client-go's log lines) and NAME.code (exit status and seconds to the
# verdict).
# Usage: tests/golden/record_wait.sh [CASE...] (default: every case in wait_cases.tsv).
# KUBECTL=/path/to/kubectl chooses kubectl (default: the pinned v1.37.1 of .ci/reference-tools). A case may play a rollout story
# (`kw sim --rollout PLOT:NAME`) and send the sim one control line (create, update, delete)
# some seconds after kubectl starts: the condition is then met later, while kubectl waits.
# Side by side: `CLIENT=kw OUT=/tmp/kw tests/golden/record_wait.sh` runs kw with the same
# arguments instead, writing its files to OUT (never to the golden files).
set -euo pipefail
# shellcheck source=tests/golden/sim_lib.sh
. "$(dirname "$0")/sim_lib.sh"

run_case() {
  local name=$1 rollout=$2 beat=$3 after=$4 op=$5; shift 5
  local tmp; tmp=$(mktemp -d)
  local story=()
  # Without a story, the clock is frozen as record.sh freezes it: -o json|yaml print the
  # same creationTimestamps every time.
  if [ "$rollout" = - ]; then story=(--clock 2026-01-01T12:00:00Z); else story=(--rollout "$rollout" --rollout-beat "$beat"); fi
  sim_start "$tmp" "${story[@]}"
  local sender=
  if [ "$op" != - ]; then
    (sleep "$after"; echo "$op" >&3) &
    sender=$!
  fi
  record_client "$tmp" "$name" "$@"
  [ -z "$sender" ] || wait "$sender" || true
  sim_stop
  # kubectl's lines, without client-go's log lines (`E1126 03:00:01.163207 ...`).
  grep -Ev '^[EIW][0-9]{4} ' "$tmp/stderr" >"$tmp/said" || true
  if [ -s "$tmp/said" ]; then cp "$tmp/said" "$out/$name.err"; else rm -f "$out/$name.err"; fi
  rm -rf "$tmp"
}

while IFS=$'\t' read -r name rollout beat after op args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$rollout" "$beat" "$after" "$op" $args
done <"$golden/wait_cases.tsv"
stamp_version wait_cases.tsv
