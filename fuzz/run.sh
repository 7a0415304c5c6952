#!/usr/bin/env bash
# Smoke run of every fuzz target: each for SECONDS (default 60), one at a time, with a memory
# limit and a per-input time limit so that a blow-up or a quadratic path counts as a finding.
# cargo-fuzz needs nightly flags; RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Each campaign starts from the tracked seeds: fuzz/seeds/<target>/ is copied into the working
# corpus fuzz/corpus/<target>/ (ignored by git), which the fuzzer grows and keeps between runs on
# this machine. A crash is written to fuzz/artifacts/<target>/ and stops the run with a non-zero
# exit. Keep a fixed crash as fuzz/regressions/<target>/<name>; `fuzz/seeds.sh` picks the seed set
# again from the grown corpus. `cargo test --test it fuzz_corpus` replays seeds and regressions.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(RUSTC_BOOTSTRAP=1 cargo fuzz list)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
export RUSTC_BOOTSTRAP=1
mkdir -p logs
for target in "${targets[@]}"; do
    echo "== $target: ${seconds}s"
    mkdir -p "corpus/$target" "regressions/$target"
    # The campaign starts from the tracked seeds; an input the corpus already has stays as is.
    for seed in "seeds/$target"/*; do
        [ -e "$seed" ] || { echo "run.sh: no seeds in fuzz/seeds/$target/" >&2; exit 1; }
        [ -e "corpus/$target/${seed##*/}" ] || cp "$seed" "corpus/$target/"
    done
    status=0
    # proxy_reply keeps a loopback proxy thread for the whole run: glibc's record of its
    # thread-local cleanup (32 bytes) reads as a leak to LeakSanitizer, not kw's.
    extra=()
    [ "$target" = proxy_reply ] && extra=(-detect_leaks=0)
    cargo fuzz run -O --debug-assertions "$target" "corpus/$target" "regressions/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 -max_len=65536 \
        -print_final_stats=1 "${extra[@]}" >"logs/$target.log" 2>&1 || status=$?
    # The last progress line (executions, coverage, features, corpus) and the final stats.
    grep -E '^#[0-9]+' "logs/$target.log" | tail -n 1
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "logs/$target.log" || true
    if [ "$status" -ne 0 ]; then
        grep -E '^(==[0-9]+==|SUMMARY|thread .* panicked)' "logs/$target.log" >&2 || true
        echo "$target: finding, see fuzz/logs/$target.log and fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
