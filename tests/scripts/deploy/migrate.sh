#!/usr/bin/env bash
# A migration step as deploy pipelines run it before the rollout: apply a Job, wait for it to
# complete, show its log when it does not, and clean up. Written for kubectl;
# `tests/it/deploy_script.rs` runs it as written and with KUBECTL=kw, the Job's container chosen
# by COMMAND (one that succeeds, one that exits 1).
set -uo pipefail
K=${KUBECTL:-kubectl}
HERE=$(dirname "$0")

sed "s|COMMAND|$COMMAND|" "$HERE/migrate.yaml" | $K apply -f -
if ! $K wait --for=condition=complete job/migrate --timeout=6s; then
    echo "migration failed:"
    $K get job migrate -o jsonpath='{.status.failed} failed, {.status.succeeded} succeeded{"\n"}'
    $K logs job/migrate
    $K delete job migrate
    exit 1
fi
$K get job migrate -o jsonpath='{.status.succeeded} succeeded{"\n"}'
$K delete job migrate
