#!/usr/bin/env bash
# Picks the tracked seed set from a campaign's working corpus, the same way every time:
# for each target, every hand-written seed (a file whose name is not libFuzzer's 40-hex SHA-1)
# and PER_TARGET (default 20) of the fuzzer's inputs at evenly spaced ranks when sorted by size
# then name (small, middling and large inputs alike). Writes fuzz/seeds/<target>/, replacing it.
#
#   fuzz/seeds.sh [PER_TARGET]
#
# fuzz/corpus/ is the campaign's working corpus (ignored by git); fuzz/seeds/ and
# fuzz/regressions/ are what git keeps and what `cargo test --test it fuzz_corpus` replays.
set -euo pipefail
cd "$(dirname "$0")"
per_target=${1:-20}
[[ $per_target =~ ^[0-9]+$ && $per_target -ge 2 ]] ||
    { echo "seeds.sh: PER_TARGET must be a number of at least 2, not '$per_target'" >&2; exit 1; }
[[ -d corpus ]] || { echo "seeds.sh: no fuzz/corpus/ to pick seeds from (run fuzz/run.sh first)" >&2; exit 1; }
export LC_ALL=C
for dir in corpus/*/; do
    target=$(basename "$dir")
    [[ -n $(ls -A "$dir") ]] || { echo "seeds.sh: fuzz/corpus/$target is empty, left as it was" >&2; continue; }
    rm -rf "seeds/$target"
    mkdir -p "seeds/$target"
    find "$dir" -maxdepth 1 -type f -printf '%f\n' | grep -vE '^[0-9a-f]{40}$' |
        while IFS= read -r name; do cp -p "$dir$name" "seeds/$target/"; done || true
    mapfile -t ranked < <(find "$dir" -maxdepth 1 -type f -printf '%s %f\n' |
        grep -E ' [0-9a-f]{40}$' | sort -k1,1n -k2,2 | cut -d' ' -f2)
    count=${#ranked[@]}
    if (( count <= per_target )); then
        picks=("${ranked[@]}")
    else
        picks=()
        for (( i = 0; i < per_target; i++ )); do
            picks+=("${ranked[i * (count - 1) / (per_target - 1)]}")
        done
    fi
    for name in "${picks[@]}"; do cp -p "$dir$name" "seeds/$target/"; done
    echo "$target: $(find "seeds/$target" -type f | wc -l) seeds of $(find "$dir" -type f | wc -l) inputs"
done
