package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"pilot/backend/wire"
)

// jsonOutput is the JSON a hook may print on stdout with exit code 0
// (Claude Code's "advanced" output).
type jsonOutput struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	SuppressOutput     bool   `json:"suppressOutput"`
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"` // "block"; PreToolUse's old "approve"
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// parse reads what a hook that exited 0 printed.
func (o *outcome) parse(e Event, command, stdout string) {
	o.run.Decision = wire.HookNone
	trimmed := bytes.TrimSpace([]byte(stdout))
	var out jsonOutput
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &out) != nil {
		// Plain output: context for the events that take it, else only
		// shown on the card.
		if (e == UserPromptSubmit || e == SessionStart) && len(trimmed) > 0 {
			o.context = append(o.context, string(trimmed))
		}
		return
	}
	if out.SystemMessage != "" {
		o.messages = append(o.messages, out.SystemMessage)
	}
	if out.Continue != nil && !*out.Continue {
		o.halt = true
		o.stopReason = out.StopReason
		if o.stopReason == "" {
			o.stopReason = fmt.Sprintf("The %s hook %q asked to stop.", e, command)
		}
		o.run.Message = o.stopReason
	}
	if c := strings.TrimSpace(out.HookSpecificOutput.AdditionalContext); c != "" {
		o.context = append(o.context, c)
	}
	hso := out.HookSpecificOutput
	if e == PreToolUse && hso.PermissionDecision != "" {
		o.decide(e, command, hso.PermissionDecision, hso.PermissionDecisionReason)
		return
	}
	switch out.Decision {
	case "block":
		if e == PreToolUse {
			o.decide(e, command, "deny", out.Reason)
			return
		}
		reason := out.Reason
		if reason == "" {
			reason = fmt.Sprintf("The %s hook %q blocked this without saying why.", e, command)
		}
		o.block, o.reason = true, reason
		o.run.Decision, o.run.Message = wire.HookDeny, reason
	case "approve":
		if e == PreToolUse {
			o.decide(e, command, "allow", out.Reason)
		}
	}
}

// decide records a PreToolUse permission decision.
func (o *outcome) decide(e Event, command, decision, reason string) {
	switch decision {
	case "allow":
		o.permission, o.run.Decision = wire.HookAllow, wire.HookAllow
	case "ask":
		o.permission, o.run.Decision = wire.HookAsk, wire.HookAsk
	case "deny":
		if reason == "" {
			reason = fmt.Sprintf("The %s hook %q denied this call without saying why.", e, command)
		}
		o.permission, o.run.Decision = wire.HookDeny, wire.HookDeny
		o.block, o.reason = true, reason
	default:
		o.fail(fmt.Sprintf("The %s hook %q gave the permission decision %q, which is none of allow, deny or ask; it was ignored.", e, command, decision))
		return
	}
	if reason != "" {
		o.run.Message = reason
	}
}
