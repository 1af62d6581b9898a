#!/usr/bin/env bash
# Memory of the production window with large sessions (issue 7): RSS and
# PSS summed over the app and its WebKit processes (/proc/PID/smaps_rollup)
# idle, after the 2,000-message session is opened, and after switching
# between it and a short session ten times (no growth is the target). The
# sessions are made by .ci/bench-memory-data.mjs and loaded with
# `pilot sessions import`; the window is driven with xdotool (positions in
# window coordinates of the 1280x820 window). Writes the memory section of
# docs/BENCHMARKS.md.
#
#   .ci/bench-memory.sh [BINARY]     (make bench builds build/bin/pilot)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/pilot}
[[ -x "$bin" ]] || {
	echo "bench: $bin missing; run make build" >&2
	exit 1
}
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
	sleep 0.5
	for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

home=$tmp/home project=$tmp/project
mkdir -p "$home" "$project"
node .ci/bench-memory-data.mjs "$tmp" 2000
PILOT_HOME=$home "$bin" sessions import "$tmp/long.json" --project "$project" >/dev/null
PILOT_HOME=$home "$bin" sessions import "$tmp/short.json" --project "$project" >/dev/null

[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
setsid Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>"$tmp/display" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -s "$tmp/display" ]] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$tmp/display")"
# A key (never used: nothing is sent) so the window shows chats, not onboarding.
PILOT_HOME=$home PILOT_PROJECT=$project ANTHROPIC_API_KEY=sk-ant-bench NO_AT_BRIDGE=1 setsid "$bin" >"$tmp/app.log" 2>&1 &
app=$!
pids+=($app)
for _ in $(seq 600); do grep -q '"msg":"frontend ready"' "$home/logs/pilot.log" 2>/dev/null && break; sleep 0.1; done
wid=$(xdotool search --onlyvisible --name '^Pilot$' | head -n1)
[[ -n "$wid" ]] || {
	echo "bench: no Pilot window" >&2
	exit 1
}

tree() {
	echo "$1"
	local c
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done
}
# memory -> "rss_mib pss_mib"
memory() {
	local rss=0 pss=0 p r s
	for p in $(tree "$app"); do
		r=$(awk '/^Rss:/ {print $2}' /proc/"$p"/smaps_rollup 2>/dev/null) || continue
		s=$(awk '/^Pss:/ {print $2}' /proc/"$p"/smaps_rollup 2>/dev/null) || continue
		rss=$((rss + ${r:-0})) pss=$((pss + ${s:-0}))
	done
	echo "$((rss / 1024)) $((pss / 1024))"
}
click() {
	xdotool mousemove --window "$wid" "$1" "$2"
	sleep 0.3
	xdotool click 1
}
# The sidebar lists the long session first, the short one under it.
long_y=277 short_y=325

sleep 5
read -r idle_rss idle_pss <<<"$(memory)"
click 129 $long_y
sleep 6
read -r open_rss open_pss <<<"$(memory)"
import -window "$wid" build/e2e-artifacts/bench-long-session.png 2>/dev/null || true
for _ in $(seq 10); do
	click 129 $short_y
	sleep 2
	click 129 $long_y
	sleep 3
done
sleep 3
read -r again_rss again_pss <<<"$(memory)"

{
	echo "Measured $(date -u +%Y-%m-%d) at commit \`$(git rev-parse --short=12 HEAD)\` by \`make bench\` (\`.ci/bench-memory.sh\`):"
	echo "$(nproc) cores, Xvfb, no window manager, load average $(cut -d' ' -f1-3 /proc/loadavg). One run."
	echo
	echo "| production window | RSS | PSS |"
	echo "|---|---:|---:|"
	echo "| idle, the project open, 5 s after start | ${idle_rss} MiB | ${idle_pss} MiB |"
	echo "| the 2,000-message session opened | ${open_rss} MiB | ${open_pss} MiB |"
	echo "| after switching to a short session and back 10 times | ${again_rss} MiB | ${again_pss} MiB |"
	echo
	echo "Growth across the 10 switches: $((again_pss - open_pss)) MiB PSS."
} | .ci/bench-section.sh memory
