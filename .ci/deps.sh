#!/usr/bin/env bash
# Checks, then installs, what Pilot needs on Debian 12 / Ubuntu 24.04.
#
#   .ci/deps.sh run    build and run the app (compiler, GTK, WebKitGTK 4.1,
#                      bubblewrap for the sandbox of commands)
#   .ci/deps.sh test   + Xvfb, Chromium, X utilities, ImageMagick, a D-Bus
#                      daemon, desktop-file-validate, rpm (to list the .rpm),
#                      curl and python3 (real clients of the commands' proxy),
#                      qemu-user (make test-arm64)
#   .ci/deps.sh bench  + ripgrep, fd-find, hyperfine
#   .ci/deps.sh arm64  Linux arm64 packages (make packages): the cross
#                      compiler and mmdebstrap (its GTK/WebKit tree)
#
# Groups add up (test implies run; bench implies test). It is idempotent: a
# second run installs nothing and runs no `apt-get update`. Toolchains (Go,
# Node.js) are checked, not installed; npm packages are installed by the
# Makefile from frontend/package-lock.json.
set -euo pipefail

group=${1:-run}

run_pkgs=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev bubblewrap)
test_pkgs=(xvfb chromium x11-apps x11-utils xdotool imagemagick dbus-daemon desktop-file-utils rpm curl python3 qemu-user)
arm64_pkgs=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross mmdebstrap)
bench_pkgs=(ripgrep fd-find hyperfine)

case "$group" in
run) want=("${run_pkgs[@]}") ;;
test) want=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
bench | all) want=("${run_pkgs[@]}" "${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
arm64) want=("${run_pkgs[@]}" "${arm64_pkgs[@]}") ;;
*)
	echo "deps: unknown group '$group' (run, test, bench, arm64)" >&2
	exit 2
	;;
esac

fail() {
	echo "deps: $*" >&2
	exit 1
}

# --- toolchains -------------------------------------------------------------
if ! command -v go >/dev/null 2>&1; then
	fail "Go is not on PATH. Install Go 1.26 or newer from the official tarball into /usr/local/go and add /usr/local/go/bin to PATH."
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	fail "Node.js >= 20.19 with npm is required (Vite 8). Install it (for example from NodeSource or your distribution) and re-run."
fi
node_version=$(node -p 'process.versions.node')
if ! node -e '
const [a, b] = process.versions.node.split(".").map(Number);
process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1);'; then
	fail "Node.js $node_version is too old: Vite 8 needs >= 20.19 (or >= 22.12). Upgrade Node.js and re-run."
fi

# --- Debian packages --------------------------------------------------------
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: not a Debian-like system; make sure these are installed: ${want[*]}" >&2
	exit 0
fi

missing=()
for p in "${want[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	exit 0
fi

echo "deps: missing packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
elif command -v sudo >/dev/null 2>&1 && [[ -z "${CI:-}" && -t 0 ]]; then
	sudo=(sudo) # interactive: sudo may ask for a password
else
	fail "cannot install packages (not root and no usable sudo). Install them yourself, then re-run:
    sudo apt-get update && sudo apt-get install -y ${missing[*]}"
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q ||
	fail "apt-get update failed. Install by hand: apt-get install -y ${missing[*]}"
"${sudo[@]}" apt-get install -y -q "${missing[@]}" ||
	fail "apt-get install failed for: ${missing[*]}"
echo "deps: installed ${missing[*]}"
