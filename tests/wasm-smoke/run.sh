#!/usr/bin/env bash
# Builds the smoke module for wasm32-unknown-unknown (release) and runs it under Node.
# Needs: `rustup target add wasm32-unknown-unknown`, and `node` (18 or later) on PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/../../target}"
cargo build --quiet --release --target wasm32-unknown-unknown \
    --manifest-path "$here/Cargo.toml" --target-dir "$target"
node "$here/run.mjs" "$target/wasm32-unknown-unknown/release/a2ui_wasm_smoke.wasm"
