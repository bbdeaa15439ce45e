#!/usr/bin/env bash
# Builds the smoke module for wasm32-unknown-unknown (release) and runs it under Node.
# Needs: `rustup target add wasm32-unknown-unknown`, and `node` (18 or later) on PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$here/../../target}"
# The panics' source locations name files by their absolute paths (the crate is a path
# dependency outside this workspace, the others sit in CARGO_HOME): without the remapping the
# module's size would depend on where the checkout and CARGO_HOME are (183 B more under CI's
# /check/work/main than under /work/main), and a host ships no paths of its build machine.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$root=a2ui-catalog-mcp --remap-path-prefix=$cargo_home=cargo"
cargo build --quiet --release --target wasm32-unknown-unknown \
    --manifest-path "$here/Cargo.toml" --target-dir "$target"
node "$here/run.mjs" "$target/wasm32-unknown-unknown/release/a2ui_wasm_smoke.wasm"
