#!/usr/bin/env bash
# What `--until ready --fail-on failed` costs in a busy namespace (issue #23): one Deployment
# that never becomes ready, in a namespace of PODS pods that churn at RATE updates a second for
# SECS seconds. kw watches the Deployment, and (for the causes and stuck children) the
# namespace's Pods, ReplicaSets and Warning Events: every Pod update reaches kw.
#
#   benches/ready.sh                     # PODS=5000 RATE=500 SECS=20
#   PODS=1000 RATE=100 SECS=10 benches/ready.sh
#
# Two runs, each ending at its --timeout (exit 3): `--until ready --fail-on failed` and, for
# comparison, `--until condition=Progressing=False` (no auxiliary watches). It prints the requests kw
# made (from the sim's request log, `{"op":"requests"}`) and kw's CPU (user+sys, /usr/bin/time)
# per second of churn. Nothing here asserts on time: it prints numbers for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

export PODS=${PODS:-5000} RATE=${RATE:-500} SECS=${SECS:-20}
cargo build --release --quiet
export KW=$PWD/target/release/kw
WORK=$(mktemp -d)
export WORK
trap 'rm -rf "$WORK"' EXIT

python3 - <<'PY'
import json, os, subprocess, time
from collections import Counter

kw, work = os.environ["KW"], os.environ["WORK"]
pods, rate, secs = int(os.environ["PODS"]), int(os.environ["RATE"]), int(os.environ["SECS"])
kc = f"{work}/kc"
sim = subprocess.Popen([kw, "sim", "--http", "--empty", "--kubeconfig-out", kc],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
assert sim.stdout.readline().startswith("ready"), "sim did not start"

def op(request):
    sim.stdin.write(json.dumps(request) + "\n")
    sim.stdin.flush()
    answer = json.loads(sim.stdout.readline())
    assert answer.get("ok"), answer
    return answer

def pod(i, n):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"churn-{i}", "namespace": "default",
                         "labels": {"app": "churn"}, "annotations": {"bench/n": str(n)}},
            "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}], "nodeName": "node-1"},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
                       "containerStatuses": [{"name": "c", "ready": True, "restartCount": 0,
                                              "image": "busybox:1.36",
                                              "state": {"running": {"startedAt": "2026-01-01T00:00:00Z"}}}]}}

for i in range(pods):
    op({"op": "create", "resource": "pods", "object": pod(i, 0)})
op({"op": "create", "resource": "deployments", "object": {
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "default", "generation": 2},
    "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "web", "image": "web:2"}]}}},
    "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": 1, "readyReplicas": 3,
               "availableReplicas": 3,
               "conditions": [{"type": "Available", "status": "True"},
                              {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}]}}})

def run(label, args):
    before = len(op({"op": "requests"})["requests"])
    timing = f"{work}/time"
    kw_run = subprocess.Popen(["/usr/bin/time", "-f", "%U %S", "-o", timing, kw, "get", "deploy/web",
                               *args, "--timeout", f"{secs}s", "-o", "name", "--kubeconfig", kc],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # kw lists and starts its watches before the churn begins
    start, updates, n = time.monotonic(), 0, 0
    while kw_run.poll() is None and time.monotonic() - start < secs:
        second = time.monotonic()
        for _ in range(rate):
            op({"op": "update", "resource": "pods", "object": pod(n % pods, n)})
            n += 1
        updates += rate
        time.sleep(max(0.0, 1.0 - (time.monotonic() - second)))
    churned = time.monotonic() - start
    code = kw_run.wait()
    user, system = map(float, open(timing).read().split()[-2:])
    requests = op({"op": "requests"})["requests"][before:]
    kinds = Counter()
    for r in requests:
        path = r["path"].split("?")[0]
        watch = "watch=" in r["path"]
        kinds[("WATCH " if watch else "GET ") + path] += 1
    cpu = user + system
    print(f"{label}: exit {code}, {updates} pod updates in {churned:.1f} s "
          f"({updates / churned:.0f}/s), kw CPU {cpu:.2f} s = {cpu / churned * 1000:.1f} ms per second "
          f"of churn ({cpu / updates * 1e6:.0f} µs per update), {len(requests)} requests:")
    for what, count in sorted(kinds.items()):
        print(f"    {count:4d} {what}")

print(f"kw ready benchmark: {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}, {os.cpu_count()} cores, "
      f"{pods} pods in the namespace, {rate} updates/s for {secs} s")
run("--until ready --fail-on failed", ["--until", "ready", "--fail-on", "failed"])
run("--until condition=Progressing=False (no auxiliary watches)", ["--until", "condition=Progressing=False"])
op({"op": "stop"})
PY
