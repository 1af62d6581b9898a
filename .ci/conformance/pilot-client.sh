#!/usr/bin/env bash
# The client the MCP conformance suite runs (`make conformance`): the real
# pilot binary, driven as a user would drive it. The suite appends the URL
# of its test server and names the scenario in MCP_CONFORMANCE_SCENARIO
# (MCP_CONFORMANCE_CONTEXT: a JSON object of what the scenario gives, such
# as a pre-registered client).
#
# A fresh PILOT_HOME registers the URL as the HTTP server "conformance",
# with a network rule naming localhost (the suite's servers are on this
# machine). Then:
#   initialize            pilot mcp list (connects: initialize, tools/list)
#   tools_call, sse-retry,
#   elicitation-*         pilot -p, whose model (fakellm, model.json) calls
#                         the scenario's tool; --elicit=defaults answers
#                         the server's form with its defaults
#   auth/*                pilot mcp login, with $BROWSER standing in for the
#                         user's browser (browser.sh: the suite's
#                         authorization server approves at once), then
#                         pilot -p calling test-tool. When pilot says the
#                         server wants a sign-in again (more scopes:
#                         insufficient_scope: the call fails with the
#                         sentence naming pilot mcp login), the driver
#                         signs in again and calls again, once, as a user
#                         told so would.
# Needs PILOT_BIN (the binary) and PILOT_CONFORMANCE_MODEL (fakellm's URL).
set -euo pipefail
url=$1
scenario=${MCP_CONFORMANCE_SCENARIO:?the suite names the scenario}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project"
project=$work/project
export HOME=$work/home PILOT_HOME=$work/home
export PILOT_PROVIDER=anthropic ANTHROPIC_BASE_URL=${PILOT_CONFORMANCE_MODEL:?} ANTHROPIC_API_KEY=sk-conformance
export BROWSER=$here/browser.sh
# The client ID metadata document the suite's basic-cimd scenario expects
# (the Go SDK's conformance client uses the same).
export PILOT_MCP_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json

ctx=${MCP_CONFORMANCE_CONTEXT:-'{}'}
jq -n --arg url "$url" --argjson ctx "$ctx" '{mcpServers: {conformance: ({type: "http", url: $url}
	+ (if $ctx.client_id then {oauth: ({clientId: $ctx.client_id} + (if $ctx.client_secret then {clientSecret: $ctx.client_secret} else {} end))} else {} end))}}' >"$PILOT_HOME/mcp.json"
pilot() { "${PILOT_BIN:?}" "$@" </dev/null; }
pilot rules add allow network localhost --project "$project" >/dev/null

call() { # the model calls the tool named $1
	pilot -p "Call mcp__conformance__$1" --project "$project" --approve all "${@:2}"
}

case $scenario in
initialize)
	pilot mcp list --project "$project"
	;;
tools_call) call add_numbers ;;
sse-retry) call test_reconnection ;;
elicitation-sep1034-client-defaults) call test_client_elicitation_defaults --elicit=defaults ;;
auth/*)
	pilot mcp login conformance --project "$project"
	out=$(call test-tool 2>&1) || { printf '%s\n' "$out"; exit 1; }
	printf '%s\n' "$out"
	if grep -q 'run `pilot mcp login conformance' <<<"$out"; then
		pilot mcp login conformance --project "$project"
		call test-tool
	fi
	;;
*)
	echo "pilot-client.sh: no way to run scenario $scenario" >&2
	exit 2
	;;
esac
