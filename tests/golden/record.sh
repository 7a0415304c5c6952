#!/usr/bin/env bash
# Record kubectl's output against `kw sim` as golden files (tests/golden/*.out, *.err).
# Usage: tests/golden/record.sh [CASE...]   (default: every case in cases.tsv)
# Needs kubectl (KUBECTL=/path/to/kubectl to choose one; by default the pinned v1.37.1 that .ci/reference-tools installs). Each case gets a fresh simulator with
# the same seed and frozen clock, so resourceVersions, uids and ages are the same every time.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
kw=${CARGO_TARGET_DIR:-target}/debug/kw
kubectl=${KUBECTL:-$(.ci/reference-tools)/kubectl}
golden=tests/golden
# The files say which kubectl wrote them (cases.tsv's header), and only a kubectl may.
version=$("$kubectl" version --client 2>/dev/null | sed -n 's/^Client Version: //p')
case "$version" in
  v1.*) "$kubectl" version --client 2>/dev/null | grep -q "^Kustomize Version" || { echo "error: $kubectl is not kubectl: the golden files are kubectl's" >&2; exit 2; } ;;
  *) echo "error: $kubectl is not kubectl (its version is '$version'): the golden files are kubectl's" >&2; exit 2 ;;
esac
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
    >"$tmp/stdout" 2>"$tmp/stderr" &
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
  # A golden records what kubectl does when it works as the case says: `out` and `out+err`
  # cases succeed (out+err: a notice on stderr, such as "No resources found"), `err` and
  # `out+fail` cases fail (out+fail: what was printed before the error, as a template's).
  # Anything else keeps the old files and fails the recording (the harness checks the same
  # exit status of kw).
  local expected_success=yes
  case "$compare" in err | out+fail) expected_success=no ;; esac
  if { [ "$expected_success" = yes ] && [ "$code" != 0 ]; } ||
     { [ "$expected_success" = no ] && [ "$code" = 0 ]; }; then
    echo "$name: kubectl exited $code, not what a '$compare' case records; kept the old golden" >&2
    cat "$tmp/stderr" >&2
    failed=1
    rm -rf "$tmp"
    return
  fi
  case "$compare" in
    out) mv "$tmp/stdout" "$golden/$name.out" ;;
    out+err | out+fail) mv "$tmp/stdout" "$golden/$name.out"; tail -n 1 "$tmp/stderr" >"$golden/$name.err" ;;
    err) rm -f "$golden/$name.out"; tail -n 1 "$tmp/stderr" >"$golden/$name.err" ;;
  esac
  echo "recorded $name (exit $code)"
  rm -rf "$tmp"
}

failed=0

while IFS=$'\t' read -r name compare scenario args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086
  run_case "$name" "$compare" "$scenario" $args
done <"$golden/cases.tsv"
sed -i "s/^# Last recorded with kubectl v[^ ]*/# Last recorded with kubectl $version/" "$golden/cases.tsv"
exit "$failed"
