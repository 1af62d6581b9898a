#!/usr/bin/env bash
# Production smoke test: the real binary (make build) opens a window under
# Xvfb with a fresh PILOT_HOME, the frontend calls into Go, and a screenshot
# of the window is not blank. Kills everything it started on any exit.
#
#   frontend/e2e/smoke-prod.sh [BINARY]     (default build/bin/pilot)
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=${1:-build/bin/pilot}
out=build/e2e-artifacts
shot=$out/prod-window.png
timeout_s=${PILOT_SMOKE_TIMEOUT:-60}
# Debian's ImageMagick, not a stand-in earlier on PATH.
IM_IMPORT=/usr/bin/import
IM_IDENTIFY=/usr/bin/identify

[[ -x "$bin" ]] || {
	echo "smoke: $bin not found; run make build" >&2
	exit 1
}
for t in Xvfb xdotool "$IM_IMPORT" "$IM_IDENTIFY"; do
	command -v "$t" >/dev/null || {
		echo "smoke: $t missing; run make deps-test" >&2
		exit 1
	}
done
mkdir -p "$out"
rm -f "$shot"

tmp=$(mktemp -d)
xvfb_pid="" app_pid=""
cleanup() {
	# Both were started with setsid: kill their whole process groups.
	for p in $app_pid $xvfb_pid; do
		kill -TERM -- "-$p" 2>/dev/null || true
	done
	sleep 0.5
	for p in $app_pid $xvfb_pid; do
		kill -KILL -- "-$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Xvfb picks a free display itself and writes its number to fd 3.
[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
setsid Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
	[[ -s "$tmp/display" ]] && break
	sleep 0.1
done
[[ -s "$tmp/display" ]] || {
	cat "$tmp/xvfb.log" >&2
	echo "smoke: Xvfb did not start" >&2
	exit 1
}
export DISPLAY=":$(head -n1 "$tmp/display")"

home="$tmp/home"
mkdir -p "$home"
t0=$(date +%s%N)
PILOT_HOME="$home" NO_AT_BRIDGE=1 setsid "$bin" >"$tmp/app.log" 2>&1 &
app_pid=$!

fail() {
	echo "smoke: $*" >&2
	echo "--- app output ---" >&2
	tail -n 40 "$tmp/app.log" >&2 || true
	echo "--- pilot.log ---" >&2
	tail -n 20 "$home/logs/pilot.log" >&2 || true
	cp "$tmp/app.log" "$out/prod-app.log" 2>/dev/null || true
	exit 1
}

# 1. the window is mapped
wid=""
deadline=$((SECONDS + timeout_s))
while [[ -z "$wid" ]]; do
	kill -0 "$app_pid" 2>/dev/null || fail "pilot exited before opening its window"
	((SECONDS < deadline)) || fail "no window named Pilot after ${timeout_s}s"
	wid=$(xdotool search --onlyvisible --name '^Pilot$' 2>/dev/null | head -n1 || true)
	[[ -n "$wid" ]] || sleep 0.1
done
t_window=$((($(date +%s%N) - t0) / 1000000))

# 2. the frontend made its first bound call (logged by Go)
while ! grep -q '"msg":"frontend ready"' "$home/logs/pilot.log" 2>/dev/null; do
	kill -0 "$app_pid" 2>/dev/null || fail "pilot exited before the frontend was ready"
	((SECONDS < deadline)) || fail "no 'frontend ready' in pilot.log after ${timeout_s}s"
	sleep 0.1
done
t_ready=$((($(date +%s%N) - t0) / 1000000))
startup_ms=$(sed -n 's/.*"msg":"frontend ready".*"startupMs":\([0-9]*\).*/\1/p' "$home/logs/pilot.log" | head -n1)

# 3. a screenshot of the window that is not blank (give the first frame time to paint)
sleep 1.5
"$IM_IMPORT" -window "$wid" "$shot" || fail "import could not capture window $wid"
colours=$("$IM_IDENTIFY" -format '%k' "$shot")
stddev=$("$IM_IDENTIFY" -format '%[fx:standard_deviation]' "$shot")
size=$("$IM_IDENTIFY" -format '%wx%h' "$shot")
echo "smoke: window $wid mapped after ${t_window} ms, frontend ready after ${t_ready} ms (startupMs ${startup_ms:-?})"
echo "smoke: screenshot $shot: ${size}, ${colours} colours, standard deviation ${stddev}"
if ((colours < 16)) || [[ "$stddev" == "0" ]]; then
	fail "the window screenshot looks blank (${colours} colours)"
fi

# 4. the app stops cleanly on SIGTERM
kill -TERM "$app_pid"
for _ in $(seq 50); do
	kill -0 "$app_pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$app_pid" 2>/dev/null && echo "smoke: note: pilot still running 5 s after SIGTERM; killing it"
echo "smoke: ok"
