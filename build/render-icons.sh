#!/bin/sh
# Renders build/icon.svg to build/icon.png and the Linux icon set build/icons/NxN.png with headless
# Chromium (transparent background), at the hicolor theme's usual sizes. Run from anywhere after
# editing icon.svg.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/icons"
for n in 16 22 24 32 48 64 96 128 256 512; do
  sed "s/width=\"512\" height=\"512\" viewBox/width=\"$n\" height=\"$n\" viewBox/" "$here/icon.svg" > "$tmp/icon-$n.svg"
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
    --window-size=$n,$n --screenshot="$here/icons/${n}x${n}.png" "file://$tmp/icon-$n.svg" >/dev/null 2>&1
done
cp "$here/icons/512x512.png" "$here/icon.png"
