#!/usr/bin/env bash
# The Debian packages Windows needs here: mingw-w64 (cgo for windows/amd64),
# wine64 and nsis (the installer), installed as .ci/deps.sh installs the
# others, or named with the command to run when they cannot be.
set -euo pipefail
want=(gcc-mingw-w64-x86-64 wine64 nsis)
missing=()
for p in "${want[@]}"; do
	[[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
	if [[ $(id -u) -ne 0 ]] && ! sudo -n true 2>/dev/null; then
		echo "windows packages: missing packages ${missing[*]}: install them (sudo apt-get install -y --no-install-recommends ${missing[*]}), then re-run" >&2
		exit 1
	fi
	sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo -n)
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		{ "${sudo[@]}" apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; } ||
		{ echo "windows packages: apt-get install failed for ${missing[*]}: install them by hand, then re-run" >&2; exit 1; }
fi
