#!/usr/bin/env bash
# The Debian arm64 tree the desktop binary for Linux arm64 links against
# (GTK 3, WebKitGTK 4.1 and their libraries, unpacked, not installed), made
# once with mmdebstrap into DIR and kept: a stamp names the suite and the
# packages, and a tree whose stamp differs is made again. Cold, it costs
# about 6 minutes and 1.2 GiB on this machine (measured 2026-11-30).
#
#   .ci/arm64-sysroot.sh DIR
set -euo pipefail

dir=${1:?usage: .ci/arm64-sysroot.sh DIR}
suite=bookworm
pkgs=libwebkit2gtk-4.1-dev,libgtk-3-dev,libc6-dev
stamp="$suite $pkgs"

if [[ -f "$dir/.pilot-sysroot" && "$(cat "$dir/.pilot-sysroot")" == "$stamp" ]]; then
	exit 0
fi
if ! command -v mmdebstrap >/dev/null 2>&1; then
	echo "arm64-sysroot: mmdebstrap is not installed: run make deps-arm64 (or apt-get install mmdebstrap), then re-run" >&2
	exit 1
fi
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
echo "arm64-sysroot: unpacking Debian $suite arm64 ($pkgs) into $dir (once; about 6 minutes)"
t0=$(date +%s)
if ! mmdebstrap --quiet --arch=arm64 --variant=extract --include="$pkgs" "$suite" "$dir" http://deb.debian.org/debian; then
	rm -rf "$dir"
	echo "arm64-sysroot: mmdebstrap failed (see above; it needs Debian's archive): fix that, then re-run make packages" >&2
	exit 1
fi
echo "$stamp" >"$dir/.pilot-sysroot"
echo "arm64-sysroot: ready in $(($(date +%s) - t0)) s"
