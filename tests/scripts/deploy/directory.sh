#!/usr/bin/env bash
# A GitHub workflow's deploy step: a directory of manifests (a Namespace, a ConfigMap, a Service,
# a Deployment) applied at once, the rollout waited on, its Pods checked by label, the Service's
# address read for the next step, and on failure the namespace's Pods and the Deployment shown.
# Written for kubectl; `tests/it/deploy_script.rs` runs it as written and with KUBECTL=kw, the
# image chosen by IMAGE.
set -uo pipefail
K=${KUBECTL:-kubectl}
HERE=$(dirname "$0")
manifests=$(mktemp -d)
trap 'rm -rf "$manifests"' EXIT
for file in "$HERE"/k8s/*.yaml; do
    sed "s|IMAGE|$IMAGE|" "$file" > "$manifests/$(basename "$file")"
done

$K apply -f "$manifests"
if ! $K rollout status deployment/shop -n shop --timeout=60s; then
    $K get deployment shop -n shop -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.reason}{"\n"}{end}'
    exit 1
fi
$K wait --for=condition=ready pod -l app=shop -n shop --timeout=30s
echo "service at $($K get service shop -n shop -o jsonpath='{.spec.clusterIP}:{.spec.ports[0].port}')"
$K get deployment shop -n shop -o jsonpath='{.metadata.annotations.deployment\.kubernetes\.io/revision}{"\n"}'
