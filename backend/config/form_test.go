package config

import (
	"strings"
	"testing"

	"pilot/backend/wire"
)

func TestCheckForm(t *testing.T) {
	t.Parallel()
	ok := wire.SettingsInput{Provider: "anthropic", ApprovalMode: ApproveAsk}
	with := func(f func(*wire.SettingsInput)) wire.SettingsInput { in := ok; f(&in); return in }
	cases := []struct {
		in   wire.SettingsInput
		want string // part of the error; "" for none
	}{
		{ok, ""},
		{with(func(in *wire.SettingsInput) { in.CheckpointRetentionMB = MinRetentionMB - 1 }), "keep at least"},
		{with(func(in *wire.SettingsInput) { in.MCPTimeoutSeconds = MCPTimeoutBound.Max + 1 }), "MCP call timeout"},
		{with(func(in *wire.SettingsInput) { in.HelperConcurrency = -1 }), "helpers at once"},
		{with(func(in *wire.SettingsInput) { in.Provider = "nope" }), "unknown provider"},
		{with(func(in *wire.SettingsInput) { in.BaseURL = "ftp://x" }), "not an http(s) address"},
		{with(func(in *wire.SettingsInput) { in.ApprovalMode = "often" }), "unknown approval mode"},
		{with(func(in *wire.SettingsInput) { in.ThinkingBudget = 5 }), "extended thinking"},
		{with(func(in *wire.SettingsInput) { in.BudgetUSD = -1 }), "cannot be negative"},
	}
	for i, c := range cases {
		err := CheckForm(c.in)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("case %d: %v, want %q", i, err, c.want)
		}
	}
}

// Apply keeps what the form leaves at zero or absent, and the base URLs of
// other providers.
func TestApplyKeepsWhatTheFormLeaves(t *testing.T) {
	t.Parallel()
	s := Settings{CheckpointRetentionMB: 50, MCPTimeoutSeconds: 30, HelperConcurrency: 2, NotificationsOff: true,
		BaseURLs: map[string]string{"ollama": "http://localhost:11434/v1", "openai": "http://old"}}
	s.Apply(wire.SettingsInput{Provider: "openai", Model: " gpt ", ApprovalMode: ApproveEdits})
	if s.CheckpointRetentionMB != 50 || s.MCPTimeoutSeconds != 30 || s.HelperConcurrency != 2 || !s.NotificationsOff {
		t.Errorf("a field the form left was changed: %+v", s)
	}
	if s.Model != "gpt" || s.ApprovalMode != ApproveEdits || s.BaseURLs["openai"] != "" || s.BaseURLs["ollama"] == "" {
		t.Errorf("the form was not applied: %+v", s)
	}
}
