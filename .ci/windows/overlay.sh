#!/usr/bin/env bash
# Writes a `go build -overlay` file (printed path) that gives Windows test
# binaries the os.RemoveAll of Plan 9 and js/wasm (remove by path, folder
# by folder) instead of Go's handle-relative one (renamed removeAllAt,
# unused; os.Root's RemoveAll still uses its parts): Wine 8 answers the
# relative delete (NtSetInformationFile with FileDispositionInformationEx
# on a handle opened relative to its folder) with "Invalid function", so
# every t.TempDir cleanup fails under Wine. Real Windows is not affected;
# pilot.exe itself is built without it.
set -euo pipefail
out=${1:?usage: overlay.sh DIR}
mkdir -p "$out"
src=$(go env GOROOT)/src/os
sed 's#^func removeAll(path string) error {$#func removeAllAt(path string) error {#' "$src/removeall_at.go" >"$out/removeall_at.go"
sed 's#^//go:build (js \&\& wasm) || plan9$#//go:build (js \&\& wasm) || plan9 || windows#' "$src/removeall_noat.go" >"$out/removeall_noat.go"
grep -q '^func removeAllAt(path string) error {$' "$out/removeall_at.go" && grep -q 'plan9 || windows$' "$out/removeall_noat.go" || {
	echo "overlay.sh: Go's os/removeall_*.go build lines changed; update .ci/windows/overlay.sh" >&2
	exit 1
}
printf '{"Replace":{"%s":"%s","%s":"%s"}}\n' \
	"$src/removeall_at.go" "$out/removeall_at.go" "$src/removeall_noat.go" "$out/removeall_noat.go" >"$out/overlay.json"
echo "$out/overlay.json"
