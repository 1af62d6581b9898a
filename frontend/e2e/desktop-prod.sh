#!/usr/bin/env bash
# The packages of `make package` and the installed app as a desktop app,
# on the production build under Xvfb with a private D-Bus session bus
# (dbus-run-session; this script starts itself under it):
#
#  1. lists the .rpm (rpm -qlp) and the .tar.gz and checks what they hold;
#  2. installs the .deb with dpkg -i (as root, or through sudo -n). Where
#     that is impossible it says why and unpacks the .deb with dpkg-deb -x
#     instead, so every later step still runs on the packaged files;
#  3. checks the installed `pilot version`, runs desktop-file-validate on
#     the entry, checks the hicolor icons;
#  4. starts the installed binary as `pilot DIR`, checks the window's
#     WM_CLASS against the entry's StartupWMClass, takes a screenshot;
#  5. launches `pilot OTHER` again: it hands OTHER to the running window
#     and exits, and one pilot process stays;
#  6. with a recording notification server on the bus (fakenotify): no
#     notification while the window has the focus; with the focus on
#     another window, a notification for the pending approval, the window
#     marked urgent, and a click brings the window forward on the session;
#  7. removes the package (dpkg --purge) and checks nothing is left.
#
#   frontend/e2e/desktop-prod.sh        (after make package)
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ -z "${PILOT_DESKTOP_TEST_BUS:-}" ]]; then
	command -v dbus-run-session >/dev/null || {
		echo "desktop: dbus-run-session missing; run make deps-test" >&2
		exit 1
	}
	# The bus starts no services on demand (lib/test-bus.conf); quiet,
	# since dbus-daemon cannot raise its fd limit in a container.
	exec env PILOT_DESKTOP_TEST_BUS=1 dbus-run-session --config-file=frontend/e2e/lib/test-bus.conf -- "$0" "$@" 2> >(grep -v 'Failed to set fd limit' >&2)
fi

pkg=build/bin/package
out=build/e2e-artifacts/desktop
timeout_s=${PILOT_DESKTOP_TIMEOUT:-60}
IM_IMPORT=/usr/bin/import
IM_IDENTIFY=/usr/bin/identify
for t in Xvfb xdotool xprop xmessage dpkg-deb rpm desktop-file-validate "$IM_IMPORT" "$IM_IDENTIFY"; do
	command -v "$t" >/dev/null || {
		echo "desktop: $t missing; run make deps-test" >&2
		exit 1
	}
done
shopt -s nullglob
debs=("$pkg"/pilot_*_amd64.deb) rpms=("$pkg"/pilot-*.x86_64.rpm) tars=("$pkg"/pilot-*-linux-amd64.tar.gz)
shopt -u nullglob
((${#debs[@]} == 1 && ${#rpms[@]} == 1 && ${#tars[@]} == 1)) || {
	echo "desktop: want one .deb, .rpm and .tar.gz in $pkg (run make package); found: ${debs[*]} ${rpms[*]} ${tars[*]}" >&2
	exit 1
}
deb=${debs[0]} rpm=${rpms[0]} tar=${tars[0]}
mkdir -p "$out" build/bin
rm -f "$out"/*.png
go build -o build/bin/fakellm ./backend/internal/fakellm/cmd/fakellm
go build -o build/bin/fakenotify ./backend/notify/notifytest/cmd/fakenotify

tmp=$(mktemp -d)
pids=()
installed=""
cleanup() {
	for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
	sleep 0.5
	for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
	# A failed run never leaves the package installed.
	[[ -n "$installed" ]] && "${sudo[@]}" dpkg --purge pilot >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "desktop: $*" >&2
	tail -n 30 "$tmp/app.log" >&2 2>/dev/null || true
	tail -n 20 "$tmp/home/logs/pilot.log" >&2 2>/dev/null || true
	[[ -n "${DISPLAY:-}" ]] && "$IM_IMPORT" -window root "$out/failure.png" 2>/dev/null || true
	exit 1
}
ok() { echo "desktop: ok: $*"; }
# shellcheck source=lib/prod-lib.sh
. frontend/e2e/lib/prod-lib.sh

# --- 1. the .rpm and the .tar.gz ------------------------------------------------
want_files=(/usr/bin/pilot /usr/share/applications/pilot.desktop)
for s in 16 24 32 48 64 128 256 512; do want_files+=("/usr/share/icons/hicolor/${s}x${s}/apps/pilot.png"); done
echo "desktop: contents of $rpm:"
rpm -qlp "$rpm" | tee "$tmp/rpm.txt" | sed 's/^/  /'
for f in "${want_files[@]}" /usr/share/licenses/pilot/LICENSE; do
	grep -qx "$f" "$tmp/rpm.txt" || fail "the .rpm lacks $f"
done
rpm -qp --requires "$rpm" >"$tmp/rpm-req.txt"
for d in gtk3 webkit2gtk4.1; do grep -qx "$d" "$tmp/rpm-req.txt" || fail "the .rpm does not require $d"; done
ok "the .rpm holds the binary, the entry, ${#want_files[@]} files in all and the license, and requires gtk3 and webkit2gtk4.1"
tar tzf "$tar" >"$tmp/tar.txt"
for f in bin/pilot share/applications/pilot.desktop share/icons/hicolor/256x256/apps/pilot.png share/doc/pilot/LICENSE; do
	grep -q "^pilot-[^/]*/$f\$" "$tmp/tar.txt" || fail "the .tar.gz lacks $f"
done
ok "the .tar.gz holds bin/, share/applications, share/icons and the license"
[[ $(dpkg-deb -f "$deb" Depends) == *libwebkit2gtk-4.1-0* && $(dpkg-deb -f "$deb" Depends) == *libgtk-3-0* ]] ||
	fail "the .deb depends on: $(dpkg-deb -f "$deb" Depends)"
[[ $(dpkg-deb -f "$deb" Depends) != *-dev* ]] || fail "the .deb depends on a -dev package: $(dpkg-deb -f "$deb" Depends)"

# --- 2. install the .deb -----------------------------------------------------------
sudo=()
root=""
if [[ $(id -u) -ne 0 ]] && ! { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then
	echo "desktop: SKIPPED installing the .deb: not root, and sudo is missing or asks for a password." >&2
	echo "desktop: the next steps run on the .deb unpacked with dpkg-deb -x; to test the install: sudo dpkg -i $deb" >&2
elif dpkg-query -W -f='${Status}' pilot 2>/dev/null | grep -q 'ok installed'; then
	echo "desktop: SKIPPED installing the .deb: a pilot package is already installed here and is not replaced; the next steps run on the .deb unpacked with dpkg-deb -x." >&2
else
	[[ $(id -u) -eq 0 ]] || sudo=(sudo -n)
	"${sudo[@]}" dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 || {
		cat "$tmp/dpkg.log" >&2
		fail "dpkg -i $deb failed"
	}
	installed=1
	[[ $(dpkg-query -W -f='${Status}' pilot) == "install ok installed" ]] || fail "dpkg says pilot is not installed"
	[[ $(command -v pilot) == /usr/bin/pilot ]] || fail "pilot on PATH is $(command -v pilot), not /usr/bin/pilot"
	ok "dpkg -i installed $(basename "$deb")"
fi
if [[ -z "$installed" ]]; then
	root=$tmp/root
	dpkg-deb -x "$deb" "$root"
fi
bin=$root/usr/bin/pilot
entry=$root/usr/share/applications/pilot.desktop

# --- 3. version, entry, icons ----------------------------------------------------------
want=$(build/bin/pilot version | head -n1)
got=$("$bin" version | head -n1)
[[ "$got" == "$want" ]] || fail "installed: '$got', built: '$want'"
debver=$(dpkg-deb -f "$deb" Version)
[[ "pilot ${debver//\~/-}" == "$want" ]] || fail "the .deb's version $debver is not the binary's ($want)"
ok "$bin version: $got (package version $debver)"
desktop-file-validate "$entry" || fail "desktop-file-validate rejects $entry"
grep -qx 'Exec=pilot %F' "$entry" || fail "the entry does not run 'pilot %F'"
grep -q '^Categories=.*Development;' "$entry" || fail "the entry is not in the Development category"
wmclass=$(sed -n 's/^StartupWMClass=//p' "$entry")
[[ -n "$wmclass" ]] || fail "the entry has no StartupWMClass"
ok "desktop-file-validate accepts the entry (Exec=pilot %F, Development, StartupWMClass=$wmclass)"
for f in "${want_files[@]}" /usr/share/doc/pilot/copyright; do [[ -e "$root$f" ]] || fail "$root$f is missing"; done
cmp -s LICENSE "$root/usr/share/doc/pilot/copyright" || fail "the installed license is not LICENSE"
for s in 16 24 32 48 64 128 256 512; do
	size=$("$IM_IDENTIFY" -format '%wx%h' "$root/usr/share/icons/hicolor/${s}x${s}/apps/pilot.png")
	[[ $size == "${s}x${s}" ]] || fail "the ${s}x${s} icon is $size"
done
ok "icons in 8 hicolor sizes; the license in /usr/share/doc/pilot/copyright"

# --- 4. pilot DIR under Xvfb ------------------------------------------------------------
start_xvfb
export NO_AT_BRIDGE=1

setsid build/bin/fakenotify >"$tmp/notes.jsonl" 2>"$tmp/fakenotify.err" &
pids+=($!)
notify_pid=$!
until_ok grep -qx ready "$tmp/notes.jsonl"
notes() { grep -c '"summary"' "$tmp/notes.jsonl" || true; }

work=$tmp/work
mkdir -p "$work/demo" "$work/other"
printf '# Demo\n\nA tiny project.\n' >"$work/demo/README.md"
printf 'other\n' >"$work/other/notes.txt"
cat >"$tmp/script.json" <<'JSON'
{"turns":[
 {"text":"Adding a line to the README.","toolCalls":[{"name":"patch_file","input":{"path":"README.md","old_text":"A tiny project.\n","new_text":"A tiny project.\n\nHello!\n"}}]},
 {"text":"Done: the README says hello."},
 {"text":"Adding the farewell.","toolCalls":[{"name":"patch_file","input":{"path":"README.md","old_text":"Hello!\n","new_text":"Hello!\n\nGoodbye for now!\n"}}],"fault":{"delayMs":400}},
 {"text":"Done: the README ends with a farewell."}
]}
JSON
start_fakellm "$tmp/script.json"

home=$tmp/home
export PILOT_HOME=$home ANTHROPIC_API_KEY=sk-ant-desktop ANTHROPIC_BASE_URL=$llm
(cd "$work" && exec setsid "$bin" demo >"$tmp/app.log" 2>&1) &
pids+=($!)
app_pid=$!
until_ok grep -qs '"msg":"frontend ready"' "$home/logs/pilot.log"
grep -q "\"msg\":\"starting window\".*\"project\":\"$work/demo\"" "$home/logs/pilot.log" || fail "pilot demo did not start on $work/demo"
wid=$(xdotool search --onlyvisible --name '^Pilot$' | head -n1)
[[ -n "$wid" ]] || fail "no window named Pilot"
class=$(xprop -id "$wid" WM_CLASS | sed -n 's/.*= "\([^"]*\)", "\([^"]*\)"$/\2/p')
[[ "$class" == "$wmclass" ]] || fail "the window's WM_CLASS class is '$class'; the entry says StartupWMClass=$wmclass"
ok "the installed pilot opened its window on demo/; WM_CLASS $(xprop -id "$wid" WM_CLASS | cut -d= -f2) matches StartupWMClass"
sleep 1.5 # let the first frame paint
"$IM_IMPORT" -window "$wid" "$out/installed.png" || fail "could not capture the window"
colours=$("$IM_IDENTIFY" -format '%k' "$out/installed.png")
((colours >= 16)) || fail "installed.png looks blank ($colours colours)"
ok "screenshot $out/installed.png ($colours colours)"

# --- 5. a second launch -------------------------------------------------------------------
pilots() {
	local n=0 d
	for d in /proc/[0-9]*; do
		[[ $(cat "$d/comm" 2>/dev/null) == pilot ]] || continue
		tr '\0' '\n' <"$d/environ" 2>/dev/null | grep -qx "PILOT_HOME=$home" && n=$((n + 1))
	done
	echo "$n"
}
[[ $(pilots) == 1 ]] || fail "$(pilots) pilot processes on one PILOT_HOME before the second launch"
second=$(cd "$work" && timeout 30 "$bin" other 2>&1) || fail "the second launch failed: $second"
[[ "$second" == "pilot: opened $work/other in the Pilot window already running" ]] || fail "the second launch said: $second"
until_ok grep -q "\"msg\":\"project opened from a second launch\",\"path\":\"$work/other\"" "$home/logs/pilot.log"
[[ $(pilots) == 1 ]] || fail "$(pilots) pilot processes after the second launch, want 1"
kill -0 "$app_pid" 2>/dev/null || fail "the first window exited"
ok "pilot other handed other/ to the running window and exited; one pilot process"
second=$(cd "$work" && timeout 30 "$bin" demo 2>&1) || fail "the third launch failed: $second"
until_ok grep -q "\"msg\":\"project opened from a second launch\",\"path\":\"$work/demo\"" "$home/logs/pilot.log"
[[ $(pilots) == 1 ]] || fail "$(pilots) pilot processes after the third launch, want 1"
# From the launcher without a file: the window only comes forward.
second=$(cd / && timeout 30 "$bin" 2>&1) || fail "a launch without a folder failed: $second"
[[ "$second" == "pilot: Pilot is already running; its window was brought forward" ]] || fail "a launch without a folder said: $second"
[[ $(pilots) == 1 ]] || fail "$(pilots) pilot processes after a launch without a folder, want 1"
ok "pilot demo and pilot (no folder) also went to the running window"

# --- 6. notifications ---------------------------------------------------------------------
click() {
	xdotool mousemove --window "$wid" "$1" "$2"
	sleep 0.3
	xdotool click 1
	sleep 0.3
}
xdotool windowfocus --sync "$wid"
until_ok test "$(xdotool getwindowfocus 2>/dev/null)" = "$wid"
click 400 717 # the prompt box's text line
xdotool type --delay 10 "Say hello in the README"
xdotool key Return
until_ok requests_at_least 1
# The one-line change waits beside the chat, the prompt box keeping the
# keyboard: a click on the review's card, then "a" approves it all (until
# the card is there the click lands on the empty panel).
approve() {
	click 930 105
	xdotool key a
	grep -q 'Hello!' "$work/demo/README.md"
}
until_ok approve
until_ok requests_at_least 2
[[ $(notes) == 0 ]] || fail "notified while the window had the focus: $(cat "$tmp/notes.jsonl")"
ok "no notification for an approval and a finished turn while the window has the focus"

click 400 717
xdotool type --delay 10 "Add a farewell"
xdotool key Return
# Another window takes the focus before the (slow) answer proposes the change.
xmessage -geometry +10+10 "another app" >/dev/null 2>&1 &
pids+=($!)
until_ok eval "xdotool search --name '^xmessage\$' >/dev/null"
other=$(xdotool search --name '^xmessage$' | head -n1)
xdotool windowfocus --sync "$other"
# Had the change come while the window had the focus, nothing would be
# notified and the wait below would fail: it cannot pass by accident.
until_ok grep -q '"summary":"Pilot is waiting for your approval"' "$tmp/notes.jsonl"
line=$(grep '"summary":"Pilot is waiting for your approval"' "$tmp/notes.jsonl" | head -n1)
[[ $line == *'"body":"'*'Change README.md"'* && $line == *'"desktopEntry":"pilot"'* && $line == *'"actions":["default","Open"]'* ]] ||
	fail "the notification was: $line"
grep -q 'Goodbye' "$work/demo/README.md" && fail "the change was applied before it was approved"
until_ok bash -c "xprop -id $wid WM_HINTS | grep -qi urgen"
ok "a notification for the pending approval ($line); the window is marked urgent"

kill -USR1 "$notify_pid" # the user clicks the notification
until_ok grep -q '"msg":"session opened from a notification"' "$home/logs/pilot.log"
until_ok test "$(xdotool getwindowfocus 2>/dev/null)" = "$wid"
until_ok bash -c "! xprop -id $wid WM_HINTS | grep -qi urgen"
ok "the click brought the window forward on the session; the urgency hint is gone"
"$IM_IMPORT" -window "$wid" "$out/notified.png" || true

kill -TERM "$app_pid"
for _ in $(seq 100); do
	kill -0 "$app_pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$app_pid" 2>/dev/null && fail "pilot still runs 10 s after SIGTERM"

# --- 7. remove the package --------------------------------------------------------------------
if [[ -n "$installed" ]]; then
	"${sudo[@]}" dpkg --purge pilot >"$tmp/dpkg.log" 2>&1 || {
		cat "$tmp/dpkg.log" >&2
		fail "dpkg --purge pilot failed"
	}
	installed=""
	for f in "${want_files[@]}" /usr/share/doc/pilot; do [[ ! -e "$f" ]] || fail "$f is still there after dpkg --purge"; done
	dpkg-query -W -f='${Status}' pilot 2>/dev/null | grep -q 'ok installed' && fail "dpkg still lists pilot"
	ok "dpkg --purge pilot removed every file"
fi
echo "desktop: ok"
