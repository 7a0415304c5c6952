#!/usr/bin/env bash
# A deploy script as CI pipelines write them: apply the manifest and wait for it, roll out a new
# image, and when that rollout fails, describe the Deployment and roll it back; then check it
# is Available, delete it and wait for it to go. Written for kubectl; `tests/it/deploy_script.rs`
# runs it as written (KUBECTL=kubectl) and switched (KUBECTL=kw) on the same sim story, chosen by
# IMAGE (a good image, one that does not exist, one whose container crashes).
set -uo pipefail
K=${KUBECTL:-kubectl}
APP=shop
HERE=$(dirname "$0")

$K apply -f "$HERE/deployment.yaml"
$K rollout status deployment/$APP --timeout=60s || exit 1
echo "running $($K get deployment $APP -o jsonpath='{.spec.template.spec.containers[0].image}')"

$K set image deployment/$APP app="$IMAGE"
status=0
if ! $K rollout status deployment/$APP --timeout=60s; then
    echo "rollout of $IMAGE failed; rolling back"
    $K describe deployment $APP | grep -E '^(Name:|Replicas:|  Progressing)'
    $K rollout undo deployment/$APP
    $K rollout status deployment/$APP --timeout=60s
    status=1
fi
echo "running $($K get deployment $APP -o jsonpath='{.spec.template.spec.containers[0].image}')"
$K wait --for=condition=Available deployment/$APP --timeout=30s
$K get deployment $APP -o jsonpath='{.status.readyReplicas}/{.spec.replicas} ready{"\n"}'
$K get pods -l app=$APP -o name | wc -l | tr -d ' ' | grep -qv '^0$' && echo "pods running"

$K delete deployment $APP --wait=false
$K wait --for=delete deployment/$APP --timeout=30s
exit $status
