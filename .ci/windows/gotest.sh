#!/usr/bin/env bash
# Runs the Go tests of the packages given under Wine (docs/WINDOWS.md):
# builds each package's Windows test binary with mingw cgo and the
# os.RemoveAll overlay, then runs them under wine64, two at a time. Needs
# .ci/windows/prefix.sh's environment. An argument DIR=REGEX runs only the
# tests REGEX matches (a package whose other tests still fail under Wine).
# Prints one line per package; fails when one does.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
: "${WINE:?source .ci/windows/prefix.sh first}" "${GO_OVERLAY:?}"
out=$here/build/wintest
rm -rf "$out"
mkdir -p "$out"
CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 GOOS=windows go test -overlay "$GO_OVERLAY" -tags sqlite_fts5 -c -o "$out/" "${@%%=*}"
# run runs one package's binary in the package's folder, as go test does
# (testdata); a package without tests gives no binary.
run() {
	local dir=${1%%=*} only=() t0=$SECONDS
	local name=${dir##*/}
	[[ $1 == *=* ]] && only=(-test.run "${1#*=}")
	[[ -f $out/$name.test.exe ]] || return 0
	if (cd "$dir" && timeout 600 "$WINE" "$out/$name.test.exe" -test.timeout 5m "${only[@]}" >"$out/$name.log" 2>&1); then
		printf 'wine ok    %-28s %3ss\n' "$1" $((SECONDS - t0))
	else
		local rc=$?
		printf 'wine FAIL  %-28s %3ss\n' "$1" $((SECONDS - t0))
		if ((rc == 124)); then
			# timeout ends only the wine64 loader: the test's Windows
			# process lives on in the wineserver, so end every program of
			# the prefix (a failed run anyway).
			echo "$1: no answer in 600 s; ending the prefix's Wine programs"
			"$WINESERVER" -k || true
		fi
		tail -n 40 "$out/$name.log"
		return 1
	fi
}
export -f run
export out WINESERVER
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'run "$1"' _ {}
