#!/usr/bin/env bash
# Screens of the production build: the real window (make build) under Xvfb,
# driven like a person would with the mouse and keyboard (xdotool), against
# the scripted fake LLM server. It opens a project, sends a prompt, reviews
# the proposed diff and approves it, searches the history and opens
# Settings, checks what each step must have done (the file on disk, the
# requests the model got) and saves a screenshot of each screen:
#
#   build/e2e-artifacts/screens/{empty,reviewing,chatting,history,settings}.png
#
# Then it starts the window again at 200% scaling (GDK_SCALE=2) on a
# 2560x1600 screen (a HiDPI laptop: 1280x800 logical pixels, less than the
# window's default height), checks the window opened wholly on the screen,
# narrows it to half the screen (640 logical pixels: one view at a time),
# asks for another change and approves it from the keyboard:
#
#   build/e2e-artifacts/screens/{scaled,scaled-narrow-review,scaled-narrow-chat}.png
#
# Positions are in window coordinates of the 1280x820 window main.go opens
# (physical pixels at 200%); the layout is fixed at that size. Kills
# everything it started on any exit.
#
#   frontend/e2e/screens-prod.sh [BINARY]     (default build/bin/pilot)
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=${1:-build/bin/pilot}
out=build/e2e-artifacts/screens
timeout_s=${PILOT_SCREENS_TIMEOUT:-60}
IM_IMPORT=/usr/bin/import
IM_IDENTIFY=/usr/bin/identify
[[ -x "$bin" ]] || {
	echo "screens: $bin not found; run make build" >&2
	exit 1
}
mkdir -p "$out" build/bin
rm -f "$out"/*.png
go build -o build/bin/fakellm ./backend/internal/fakellm/cmd/fakellm

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
	sleep 0.5
	for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "screens: $*" >&2
	tail -n 30 "$tmp/app.log" >&2 2>/dev/null || true
	"$IM_IMPORT" -window root "$out/failure.png" 2>/dev/null || true
	exit 1
}

# shellcheck source=lib/prod-lib.sh
. frontend/e2e/lib/prod-lib.sh

# --- a project and a model ----------------------------------------------------
project=$tmp/demo
mkdir -p "$project/src"
printf '# Demo\n\nA tiny project.\n' >"$project/README.md"
cat >"$project/src/main.go" <<'GO'
package main

import "fmt"

func greet(name string) string {
	return "Hello, " + name
}

func main() {
	fmt.Println(greet("world"))
}
GO
cat >"$tmp/script.json" <<'JSON'
{"turns":[
 {"text":"I'll look at how the greeting is built first.","toolCalls":[{"name":"read_file","input":{"path":"src/main.go"}}]},
 {"text":"The greeting lives in `greet`. I'll make it friendlier.","toolCalls":[{"name":"patch_file","input":{"path":"src/main.go","old_text":"\treturn \"Hello, \" + name\n","new_text":"\treturn \"Hello, \" + name + \"! Nice to see you.\"\n"}}]},
 {"text":"Done. `greet` now returns a friendlier sentence:\n\n```go\nfunc greet(name string) string {\n\treturn \"Hello, \" + name + \"! Nice to see you.\"\n}\n```\n\nRun `go run ./src` to see it."},
 {"text":"I'll read the README first.","toolCalls":[{"name":"read_file","input":{"path":"README.md"}}]},
 {"text":"Adding the farewell at the end.","toolCalls":[{"name":"patch_file","input":{"path":"README.md","old_text":"A tiny project.\n","new_text":"A tiny project.\n\nGoodbye for now!\n"}}]},
 {"text":"Done: the README now ends with a farewell."}
]}
JSON
start_fakellm "$tmp/script.json"

# --- the window -----------------------------------------------------------------
start_xvfb
home=$tmp/home
PILOT_HOME=$home PILOT_PROJECT=$project ANTHROPIC_API_KEY=sk-ant-screens ANTHROPIC_BASE_URL=$llm NO_AT_BRIDGE=1 \
	setsid "$bin" >"$tmp/app.log" 2>&1 &
pids+=($!)
until_ok grep -qs '"msg":"frontend ready"' "$home/logs/pilot.log"
wid=$(xdotool search --onlyvisible --name '^Pilot$' | head -n1)
[[ -n "$wid" ]] || fail "no window named Pilot"

# Move first and let WebKit see the pointer there, then press.
click() {
	xdotool mousemove --window "$wid" "$1" "$2"
	sleep 0.3
	xdotool click 1
	sleep 0.3
}
shot() {
	sleep "${2:-1}"
	"$IM_IMPORT" -window "$wid" "$out/$1.png" || fail "could not capture $1"
	local colours
	colours=$("$IM_IDENTIFY" -format '%k' "$out/$1.png")
	((colours >= 16)) || fail "$1.png looks blank ($colours colours)"
	echo "screens: $out/$1.png ($colours colours)"
}

shot empty 1

# The prompt box's text line, at the bottom of the chat column (its
# mode control and Send are on the row below).
click 400 717
xdotool type --delay 10 "Make the greeting friendlier"
xdotool key Return
until_ok requests_at_least 2
shot reviewing 1.5
grep -q 'Nice to see you' "$project/src/main.go" && fail "the file changed before it was approved"

# At 1280x820 a one-line change waits beside the chat while the prompt
# keeps the keyboard (a person may be typing): click the review's card,
# then "a" approves it all.
click 930 105
xdotool key a
until_ok grep -q 'Nice to see you' "$project/src/main.go"
until_ok requests_at_least 3
shot chatting 1.5

# Search the history from the sidebar.
click 129 231
xdotool type --delay 10 "friendlier"
shot history 1.5

# Settings, in the status bar.
xdotool key Escape
click 1185 806
shot settings 1

# --- 200% scaling -----------------------------------------------------------------
kill -TERM -- "-${pids[-1]}"
until_ok bash -c "! kill -0 ${pids[-1]} 2>/dev/null"
setsid Xvfb -displayfd 3 -screen 0 2560x1600x24 -nolisten tcp -noreset 3>"$tmp/display2" >"$tmp/xvfb2.log" 2>&1 &
pids+=($!)
until_ok test -s "$tmp/display2"
export DISPLAY=":$(head -n1 "$tmp/display2")"
PILOT_HOME=$home PILOT_PROJECT=$project ANTHROPIC_API_KEY=sk-ant-screens ANTHROPIC_BASE_URL=$llm NO_AT_BRIDGE=1 GDK_SCALE=2 \
	setsid "$bin" >>"$tmp/app.log" 2>&1 &
pids+=($!)
ready_twice() { (($(grep -c '"msg":"frontend ready"' "$home/logs/pilot.log") >= 2)); }
until_ok ready_twice
wid=$(xdotool search --onlyvisible --name '^Pilot$' | head -n1)
[[ -n "$wid" ]] || fail "no window named Pilot at 200%"
# Wholly on the 2560x1600 screen (Wails centres it at 2560x1640 first).
sleep 1
eval "$(xdotool getwindowgeometry --shell "$wid")"
((X >= 0 && Y >= 0 && X + WIDTH <= 2560 && Y + HEIGHT <= 1600)) || fail "at 200% the window is off the screen: ${WIDTH}x${HEIGHT} at $X,$Y"
shot scaled 1

# Half the screen wide: 640 logical pixels, one view at a time.
xdotool windowsize "$wid" 1280 1600
xdotool windowmove "$wid" 0 0
sleep 1
# The prompt box, above the status bar.
click 640 1420
xdotool type --delay 10 "Add a farewell to the README"
xdotool key Return
until_ok requests_at_least 5
shot scaled-narrow-review 1.5
grep -q 'Goodbye' "$project/README.md" && fail "the README changed before it was approved"
# The review took the focus when it replaced the chat: "a" approves it all.
xdotool key a
until_ok grep -q 'Goodbye for now' "$project/README.md"
until_ok requests_at_least 6
shot scaled-narrow-chat 1.5
echo "screens: ok"
