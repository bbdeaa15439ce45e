#!/usr/bin/env bash
# Long fuzzing runs without the sanitizer: builds every target optimised and uninstrumented for
# memory errors (the crate forbids `unsafe`; the run still catches panics, stack overflows,
# hangs and memory blow-ups), then runs each one from its committed seeds for RUNS executions
# (default 10 000 000) or SECONDS_PER_TARGET seconds (default 7200), whichever comes first, and
# prints the executions each target made.
#
#   fuzz/long.sh                 every target
#   RUNS=1000000 fuzz/long.sh regex messages
#   BUILD=0 fuzz/long.sh reactive    run the binaries built last (while the sources change)
#
# What libFuzzer finds goes to target/fuzz-long/<target> (the committed seeds stay as they
# are); a crash stops the script and leaves its input in fuzz/artifacts/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10000000}
seconds=${SECONDS_PER_TARGET:-7200}

unset CARGO_TARGET_DIR # cargo fuzz builds in fuzz/target
if [ "${BUILD:-1}" != 0 ]; then
    cargo +nightly fuzz build -s none -O
fi
bin=fuzz/target/x86_64-unknown-linux-gnu/release
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
for target in "${targets[@]}"; do
    args=(-runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
    # Per-target libFuzzer options (fuzz/options/<target>) and dictionary (fuzz/dict/<target>.dict).
    if [ -f "fuzz/options/$target" ]; then
        read -ra more <"fuzz/options/$target"
        args+=("${more[@]}")
    fi
    if [ -f "fuzz/dict/$target.dict" ]; then
        args+=(-dict="fuzz/dict/$target.dict")
    fi
    mkdir -p "target/fuzz-long/$target" "fuzz/artifacts/$target"
    log="target/fuzz-long/$target.log"
    started=$SECONDS
    if ! "$bin/$target" "${args[@]}" -artifact_prefix="fuzz/artifacts/$target/" \
        "target/fuzz-long/$target" "fuzz/corpus/$target" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "long.sh: $target failed; its input is in fuzz/artifacts/$target" >&2
        exit 1
    fi
    done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -n 1)
    echo "$target: $done_line (wall $((SECONDS - started)) s)"
done
