# shellcheck shell=bash
# What record_rollout.sh and record_wait.sh share: the client to record (kubectl, or kw with
# CLIENT=kw), where the files go, and a `kw sim` started for one case and stopped after it.
# Sourced, not run.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
cargo build --quiet
kw=${CARGO_TARGET_DIR:-target}/debug/kw
kubectl=${KUBECTL:-$(.ci/reference-tools)/kubectl}
[ "${CLIENT:-kubectl}" = kw ] && kubectl=$kw
golden=tests/golden
out=${OUT:-$golden}
# The golden files are kubectl's: kw's own output goes elsewhere (OUT), never over them.
if [ "${CLIENT:-kubectl}" = kw ] && [ "$(realpath -m "$out")" = "$(realpath -m "$golden")" ]; then
  echo "error: CLIENT=kw writes kw's output: give OUT=DIR outside $golden" >&2
  exit 2
fi
# Only a kubectl writes the golden files (kw has no Kustomize line), and they say which one.
if [ "$out" = "$golden" ]; then
  version=$("$kubectl" version --client 2>/dev/null | sed -n 's/^Client Version: //p')
  "$kubectl" version --client 2>/dev/null | grep -q '^Kustomize Version' || {
    echo "error: $kubectl is not kubectl: the golden files are kubectl's" >&2
    exit 2
  }
fi
mkdir -p "$out"

# stamp_version TABLE: TABLE's header names the kubectl that recorded into tests/golden.
stamp_version() {
  [ "$out" = "$golden" ] || return 0
  sed -i "s/^# Last recorded with kubectl v[^ ]*/# Last recorded with kubectl $version/" "$golden/$1"
}

# sim_start TMP SIM_ARGS...: a sim in the background, its kubeconfig at TMP/kubeconfig and its
# control lines read from file descriptor 3 (a fifo), back once it says it is ready. Sets $sim.
sim_start() {
  local tmp=$1; shift
  mkfifo "$tmp/ctl"
  "$kw" sim "$@" --kubeconfig-out "$tmp/kubeconfig" <"$tmp/ctl" >"$tmp/sim.out" 2>"$tmp/sim.err" &
  sim=$!
  exec 3>"$tmp/ctl"
  for _ in $(seq 200); do grep -q '^ready' "$tmp/sim.out" 2>/dev/null && break; sleep 0.01; done
}

sim_stop() {
  echo '{"op":"stop"}' >&3 || true
  exec 3>&-
  wait "$sim" || true
}

# record_client TMP NAME ARGS...: the client against the sim, its stdout to NAME.out, its stderr
# to TMP/stderr, and NAME.code (exit status and seconds to the verdict).
record_client() {
  local tmp=$1 name=$2; shift 2
  local code=0 start end
  start=$(date +%s.%N)
  HOME="$tmp" KUBECACHEDIR="$tmp/cache" "$kubectl" --kubeconfig "$tmp/kubeconfig" "$@" \
    >"$out/$name.out" 2>"$tmp/stderr" || code=$?
  end=$(date +%s.%N)
  printf '%s %.1f\n' "$code" "$(echo "$end - $start" | bc)" >"$out/$name.code"
  echo "recorded $name (exit $code)"
}
