#!/bin/sh
# Refreshes the vendored board components under crates/gui/assets/vendor
# from the npm registry with `npm pack` (no install, no build step). The
# versions are pinned here and in assets/vendor/VENDOR.md; change both.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
vendor="$here/assets/vendor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent chessgroundx@10.7.4 @sabaki/shudan@1.7.1 preact@10.29.8 >/dev/null
for t in *.tgz; do mkdir "${t%.tgz}"; tar xzf "$t" -C "${t%.tgz}"; done

rm -rf "$vendor/chessgroundx" "$vendor/shudan" "$vendor/preact"
# chessgroundx: its ES modules (compiled from TypeScript, unminified) and CSS.
mkdir -p "$vendor/chessgroundx/assets"
cp chessgroundx-10.7.4/package/*.js "$vendor/chessgroundx/"
cp chessgroundx-10.7.4/package/assets/chessground.base.css "$vendor/chessgroundx/assets/"
cp chessgroundx-10.7.4/package/LICENSE "$vendor/chessgroundx/"
# Shudan: its ES module sources (it ships no build) and CSS.
mkdir -p "$vendor/shudan"
cp -r sabaki-shudan-1.7.1/package/src sabaki-shudan-1.7.1/package/css "$vendor/shudan/"
rm -f "$vendor"/shudan/src/*.d.ts
cp sabaki-shudan-1.7.1/package/LICENSE "$vendor/shudan/"
# Preact: the unminified ES module sources (its dist/ is minified).
mkdir -p "$vendor/preact/hooks"
cp -r preact-10.29.8/package/src "$vendor/preact/"
cp -r preact-10.29.8/package/hooks/src "$vendor/preact/hooks/"
find "$vendor/preact" -name '*.d.ts' -delete
cp preact-10.29.8/package/LICENSE "$vendor/preact/"
echo "vendored into $vendor"
