# Helpers of the production tests (sourced by screens-prod.sh and
# desktop-prod.sh, which define tmp, pids, timeout_s and fail): waiting for
# a state, an Xvfb and the scripted fake LLM server, both in their own
# process group and added to pids for the caller's cleanup.

# until_ok CMD...: retry CMD until it succeeds, for timeout_s seconds.
until_ok() {
	local deadline=$((SECONDS + timeout_s))
	until "$@"; do
		((SECONDS < deadline)) || fail "timed out waiting for: $*"
		sleep 0.2
	done
}

# start_xvfb: an Xvfb on a free display (it writes the number to fd 3);
# exports DISPLAY.
start_xvfb() {
	[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
	setsid Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
	pids+=($!)
	until_ok test -s "$tmp/display"
	export DISPLAY=":$(head -n1 "$tmp/display")"
}

# start_fakellm SCRIPT: build/bin/fakellm serving SCRIPT; sets llm to its URL.
start_fakellm() {
	setsid build/bin/fakellm -script "$1" -addr 127.0.0.1:0 >"$tmp/fake.log" 2>&1 &
	pids+=($!)
	until_ok grep -q '^listening on ' "$tmp/fake.log"
	llm=$(sed -n 's/^listening on //p' "$tmp/fake.log" | head -n1)
}

# model_calls URL: how many model calls the fake server at URL answered.
# Its request log also has Pilot's asks for the model list (Settings ›
# Models, the picker, the model facts before a session's first call),
# which are not answers the window waits for.
model_calls() {
	curl -fsS "$1/_fakellm/requests" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log((JSON.parse(s) ?? []).filter((r)=>r.format==="anthropic"||r.format==="openai").length))'
}

# requests_at_least N: the model has been called N times.
requests_at_least() {
	local n
	n=$(model_calls "$llm") || return 1
	((n >= $1))
}
