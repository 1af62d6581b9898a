#!/usr/bin/env bash
# The real pilot.exe under Wine (docs/WINDOWS.md): `version`, then one
# `pilot -p` turn against the fake model (backend/internal/fakellm, run on
# the Linux side: Wine shares loopback) that calls the file tools, a
# `pilot rewind` of its checkpoint, then the
# installer's silent install and uninstall. Needs .ci/windows/prefix.sh's
# environment and build/bin/pilot.exe and its installer (make windows).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
: "${WINE:?source .ci/windows/prefix.sh first}"
bin=$here/build/bin
work=$(mktemp -d)
fake_pid=
trap '[[ -n $fake_pid ]] && kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() {
	echo "smoke-windows: $*" >&2
	exit 1
}
win() { printf 'Z:%s' "${1//\//\\}"; } # a Linux path as Wine's Z: drive names it

out=$("$WINE" "$bin/pilot.exe" version) || fail "pilot.exe version failed"
grep -q "windows/amd64" <<<"$out" || fail "pilot.exe version printed: $out"
echo "smoke-windows: version ok ($(head -1 <<<"$out"))"

go build -o "$work/fakellm" ./backend/internal/fakellm/cmd/fakellm
mkdir -p "$work/project/src" "$work/home"
printf 'package main\n\nfunc main() { println("needle") }\n' >"$work/project/src/main.go"
cat >"$work/script.json" <<'JSON'
{"turns": [
  {"toolCalls": [{"name": "list_files", "input": {"path": "src"}}]},
  {"toolCalls": [{"name": "read_file", "input": {"path": "src/main.go"}}]},
  {"toolCalls": [{"name": "grep", "input": {"pattern": "needle"}}]},
  {"toolCalls": [{"name": "glob", "input": {"pattern": "**/*.go"}}]},
  {"toolCalls": [{"name": "write_file", "input": {"path": "new/dir/notes.txt", "content": "written\n"}}]},
  {"text": "Done looking."},
  {"toolCalls": [{"name": "read_file", "input": {"path": "src/main.go"}}]},
  {"toolCalls": [{"name": "patch_file", "input": {"path": "src/main.go", "old_text": "needle", "new_text": "found"}}]},
  {"text": "Patched."}
]}
JSON
"$work/fakellm" -script "$work/script.json" >"$work/fake.out" &
fake_pid=$!
for _ in $(seq 200); do grep -q '^listening on ' "$work/fake.out" 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$work/fake.out")
[[ -n $url ]] || fail "the fake model did not start"

pilot() { PILOT_HOME=$(win "$work/home") PILOT_PROVIDER=anthropic ANTHROPIC_BASE_URL=$url ANTHROPIC_API_KEY=sk-smoke "$WINE" "$bin/pilot.exe" "$@"; }
pilot -p "Look at the project" --project "$(win "$work/project")" --approve all \
	>"$work/p.out" 2>"$work/p.err" || { cat "$work/p.out" "$work/p.err"; fail "pilot -p failed under Wine"; }
for line in "Listing" "Reading file: src/main.go" "Searching" ; do
	grep -q "$line" "$work/p.err" || { cat "$work/p.err"; fail "pilot -p printed no progress line with \"$line\""; }
done
grep -q "Done looking." "$work/p.out" || { cat "$work/p.out"; fail "pilot -p printed no answer"; }
[[ $(cat "$work/project/new/dir/notes.txt" 2>/dev/null) == written ]] || { cat "$work/p.err"; fail "write_file into a new folder wrote no new/dir/notes.txt"; }
echo "smoke-windows: pilot -p ok (list_files, read_file, grep, glob, write_file into a new folder against the fake model)"

# A second prompt in the same session patches a file (a checkpoint first),
# and a rewind to just before that prompt puts it back. The rewind does
# not remove the file the first prompt created: Go removes a file through
# an os.Root with FileDispositionInformationEx, which Wine 8 answers
# "Invalid function" (Windows 10 has it).
id=$(pilot sessions list --project "$(win "$work/project")" --json | jq -r '.id' | head -1)
[[ $id =~ ^[0-9]+$ ]] || fail "pilot sessions list gave no session: \"$id\""
before=$(cat "$work/project/src/main.go")
pilot -p "Patch it" --project "$(win "$work/project")" --resume "$id" --approve all \
	>"$work/p2.out" 2>"$work/p2.err" || { cat "$work/p2.out" "$work/p2.err"; fail "the second pilot -p failed under Wine"; }
grep -q 'println("found")' "$work/project/src/main.go" || { cat "$work/p2.err"; fail "patch_file did not change src/main.go"; }
echo "smoke-windows: pilot -p --resume ok (patch_file)"
pilot sessions show "$id" --json >"$work/show.json"
msg=$(jq -r '.messages[] | select(.role == "user" and any((.content // [])[]; .text == "Patch it")) | .id' "$work/show.json" | head -1)
[[ $msg =~ ^[0-9]+$ ]] || { cat "$work/show.json"; fail "no user message \"Patch it\" to rewind to"; }
pilot rewind "$id" --to "$msg" --code >"$work/r.out" 2>&1 || { cat "$work/r.out"; fail "pilot rewind failed under Wine"; }
[[ $(cat "$work/project/src/main.go") == "$before" ]] || fail "the rewind did not restore src/main.go: $(cat "$work/project/src/main.go")"
[[ $(cat "$work/project/new/dir/notes.txt" 2>/dev/null) == written ]] || fail "the rewind to the second prompt changed new/dir/notes.txt"
echo "smoke-windows: checkpoint and rewind ok (pilot rewind restored src/main.go)"

# The fake model's script for the next prompts (replacing the one above),
# and the tool results it has been sent since.
fake_script() { curl -sf -X POST --data-binary @- "$url/_fakellm/script" >/dev/null || fail "the fake model took no new script"; }
tool_results() { curl -sf "$url/_fakellm/requests" | jq -r '.[].toolResults[]?.content'; }

# An MCP server as a user configures one: the project's .mcp.json names a
# stdio server built for Windows (backend/internal/mcptest/cmd/mcpstdio,
# the official Go SDK's server), `pilot mcp trust --yes` trusts the file
# (pilot -p starts no server of an untrusted one), and the tool's result
# reaches the model: the fake model answers only once it has it.
mkdir -p "$work/bin"
GOOS=windows CGO_ENABLED=0 go build -o "$work/bin/mcpstdio.exe" ./backend/internal/mcptest/cmd/mcpstdio
jq -n --arg cmd "$(win "$work/bin/mcpstdio.exe")" \
	'{mcpServers: {wine: {command: $cmd, env: {PILOT_MCP_TEST_SHOW: " (env from .mcp.json)"}}}}' >"$work/project/.mcp.json"
pilot mcp trust --project "$(win "$work/project")" --yes >"$work/t.out" 2>&1 || { cat "$work/t.out"; fail "pilot mcp trust --yes failed under Wine"; }
fake_script <<'JSON'
{"turns": [
  {"when": {"lastUserContains": "Call the MCP server"}, "toolCalls": [{"name": "mcp__wine__echo", "input": {"text": "hello from Wine"}}]},
  {"when": {"toolResultContains": "echo: hello from Wine (env from .mcp.json)"}, "text": "The MCP server answered."}
]}
JSON
pilot -p "Call the MCP server" --project "$(win "$work/project")" --approve all \
	>"$work/m.out" 2>"$work/m.err" || { cat "$work/m.out" "$work/m.err"; tool_results; fail "pilot -p with an MCP server failed under Wine"; }
grep -q "The MCP server answered." "$work/m.out" || { cat "$work/m.out" "$work/m.err"; fail "the MCP tool's result did not reach the model"; }
rm "$work/project/.mcp.json" # the steps below start no server
echo "smoke-windows: MCP server ok (a stdio server of .mcp.json, trusted, started under Wine; its tool's result reached the model)"

# A command: run_bash runs `bash -c COMMAND` with Git Bash, which cannot be
# downloaded here; gosh, the bash-compatible interpreter of the mvdan/sh
# project (.ci/windows/tools, a module of its own), built for Windows stands
# in for it, named by CLAUDE_CODE_GIT_BASH_PATH as a user would name Git
# Bash. Its output (and the folder it ran in) reaches the model; without
# any bash, the tool's result says to install Git for Windows.
(cd .ci/windows/tools && GOOS=windows CGO_ENABLED=0 go build -o "$work/bin/bash.exe" mvdan.cc/sh/v3/cmd/gosh)
bash_script() {
	fake_script <<'JSON'
{"turns": [
  {"when": {"lastUserContains": "Run a command"}, "toolCalls": [{"name": "run_bash", "input": {"command": "echo \"sum $((2 + 3))\"; pwd"}}]},
  {"when": {"hasToolResult": true}, "text": "The command ran."}
]}
JSON
}
bash_script
CLAUDE_CODE_GIT_BASH_PATH=$(win "$work/bin/bash.exe") pilot -p "Run a command" --project "$(win "$work/project")" --approve all \
	>"$work/b.out" 2>"$work/b.err" || { cat "$work/b.out" "$work/b.err"; fail "pilot -p with run_bash failed under Wine"; }
res=$(tool_results)
grep -q "The command ran." "$work/b.out" && grep -qx "sum 5" <<<"$res" && grep -qxF "$(win "$work/project")" <<<"${res//$'\r'/}" ||
	{ cat "$work/b.err"; echo "$res"; fail "run_bash's output (sum 5, then the project folder) did not reach the model"; }
bash_script
pilot -p "Run a command" --project "$(win "$work/project")" --approve all \
	>"$work/n.out" 2>"$work/n.err" || { cat "$work/n.out" "$work/n.err"; fail "pilot -p with no bash failed under Wine"; }
res=$(tool_results)
grep -q "install Git for Windows" <<<"$res" || { cat "$work/n.err"; echo "$res"; fail "without bash, run_bash's result did not say to install Git for Windows"; }
echo "smoke-windows: run_bash ok (gosh as CLAUDE_CODE_GIT_BASH_PATH ran the command in the project; without bash the result says to install Git for Windows)"

# pilot -p typed in a console prints there: pilot.exe is the GUI build
# (its PE header's subsystem is 2, as `make windows` builds it), which
# Windows starts from a console with no console and no standard handles;
# conprobe (.ci/windows/tools) starts it so from its console and writes
# the console's text to a file. Under Wine conprobe's console needs a
# terminal, which script(1) gives it.
pe=$(od -An -tu4 -j60 -N4 "$bin/pilot.exe")
[[ $(od -An -tu2 -j$((pe + 92)) -N2 "$bin/pilot.exe") -eq 2 ]] || fail "build/bin/pilot.exe is not the GUI build"
(cd .ci/windows/tools && GOOS=windows CGO_ENABLED=0 go build -o "$work/bin/conprobe.exe" ./conprobe)
fake_script <<'JSON'
{"turns": [{"when": {"lastUserContains": "Answer in the console"}, "text": "Answered in the console."}]}
JSON
printf -v line '%q ' "$WINE" "$work/bin/conprobe.exe" "$(win "$work/screen.txt")" "$(win "$bin/pilot.exe")" \
	-p "Answer in the console" --project "$(win "$work/project")"
PILOT_HOME=$(win "$work/home") PILOT_PROVIDER=anthropic ANTHROPIC_BASE_URL=$url ANTHROPIC_API_KEY=sk-smoke \
	script -qec "$line" /dev/null >"$work/pty.out" 2>&1 || { cat "$work/pty.out"; fail "pilot -p in a console failed under Wine"; }
grep -q "Answered in the console." "$work/screen.txt" || { cat "$work/pty.out" "$work/screen.txt"; fail "the GUI pilot.exe -p printed no answer in the console it was started from"; }
echo "smoke-windows: console ok (the GUI pilot.exe -p printed its answer in the console it was started from)"

# The installer: silent install (/S) into a folder of the prefix, the
# program there, then the silent uninstall removes it.
"$WINE" "$bin/Pilot-amd64-installer.exe" /S >/dev/null 2>&1 || fail "the installer failed"
installed=$WINEPREFIX/drive_c/Program\ Files/Pilot/Pilot/pilot.exe
[[ -f $installed ]] || installed=$(find "$WINEPREFIX/drive_c/Program Files" -iname pilot.exe | head -1)
[[ -f $installed ]] || fail "the installer put no pilot.exe under Program Files"
"$WINE" "$installed" version >/dev/null || fail "the installed pilot.exe does not run"
uninst=$(find "$(dirname "$installed")" -iname 'uninstall*.exe' | head -1)
[[ -n $uninst ]] || fail "the installer left no uninstaller beside pilot.exe"
"$WINE" "$uninst" /S >/dev/null 2>&1 || fail "the uninstaller failed"
for _ in $(seq 200); do [[ -f $installed ]] || break; sleep 0.1; done # NSIS's uninstaller runs from a copy, after exiting
[[ ! -f $installed ]] || fail "the silent uninstall left $installed"
echo "smoke-windows: installer ok (silent install, the installed pilot.exe runs, silent uninstall)"
