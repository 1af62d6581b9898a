package config

import (
	"fmt"
	"net/url"
	"strings"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// CheckForm validates the Settings form: each field within its range, a
// known provider, an http(s) base URL, a known approval mode, a thinking
// budget the model accepts. The error is a sentence for the user.
func CheckForm(in wire.SettingsInput) error {
	if in.CheckpointRetentionMB != 0 && in.CheckpointRetentionMB < MinRetentionMB {
		return fmt.Errorf("keep at least %d MiB of checkpoints per project (%d was given): with less, most changes could no longer be undone", MinRetentionMB, in.CheckpointRetentionMB)
	}
	for _, c := range []struct {
		b    Bound
		what string
		v    int
		unit string
	}{
		{MCPTimeoutBound, "the MCP call timeout", in.MCPTimeoutSeconds, " seconds"},
		{HelpersBound, "helpers at once", in.HelperConcurrency, ""},
		{JobsBound, "background jobs per session", in.JobsPerSession, ""},
	} {
		if err := c.b.Check(c.what, c.v, c.unit); err != nil {
			return err
		}
	}
	if _, ok := llm.LookupPreset(in.Provider); !ok {
		return fmt.Errorf("unknown provider %q: choose one of %s (openai: any OpenAI-compatible server)", in.Provider, strings.Join(llm.PresetIDs(), ", "))
	}
	if b := strings.TrimSpace(in.BaseURL); b != "" {
		u, err := url.Parse(b)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("the base URL %q is not an http(s) address, e.g. http://localhost:11434/v1", b)
		}
	}
	switch in.ApprovalMode {
	case "", ApproveAsk, ApproveEdits, ApproveAll, ApproveNone, ApprovePlan:
	default:
		return fmt.Errorf("unknown approval mode %q: choose ask, edits, all, none or plan", in.ApprovalMode)
	}
	// Only Anthropic thinks with a budget; for other providers the saved
	// budget waits, checked against no model.
	model := ""
	if llm.Protocol(in.Provider) == llm.ProviderAnthropic {
		if model = strings.TrimSpace(in.Model); model == "" {
			model = llm.DefaultModel(in.Provider)
		}
	}
	if err := CheckThinking(in.ThinkingBudget, model); err != nil {
		return fmt.Errorf("extended thinking: %w", err)
	}
	if in.BudgetTokens < 0 || in.BudgetUSD < 0 {
		return fmt.Errorf("a budget cannot be negative; 0 means no budget")
	}
	return nil
}

// Apply writes the Settings form (checked with CheckForm) onto s. A field
// the form leaves at 0 (retention, MCP timeout, helpers, jobs) or absent
// (notifications) keeps what s has; the base URL is kept per provider. The
// key is not in Settings: the caller saves it with SaveKey.
func (s *Settings) Apply(in wire.SettingsInput) {
	s.Provider = in.Provider
	s.Model = strings.TrimSpace(in.Model)
	if s.BaseURLs == nil {
		s.BaseURLs = map[string]string{}
	}
	if b := strings.TrimSpace(in.BaseURL); b != "" {
		s.BaseURLs[in.Provider] = b
	} else {
		delete(s.BaseURLs, in.Provider)
	}
	s.ApprovalMode = string(in.ApprovalMode)
	s.ThinkingBudget = in.ThinkingBudget
	s.BudgetTokens = int64(in.BudgetTokens)
	s.BudgetUSD = in.BudgetUSD
	if in.CheckpointRetentionMB != 0 { // 0: not on the form; keep what is saved
		s.CheckpointRetentionMB = in.CheckpointRetentionMB
	}
	if in.MCPTimeoutSeconds != 0 {
		s.MCPTimeoutSeconds = in.MCPTimeoutSeconds
	}
	if in.HelperConcurrency != 0 {
		s.HelperConcurrency = in.HelperConcurrency
	}
	if in.JobsPerSession != 0 {
		s.JobsPerSession = in.JobsPerSession
	}
	if in.Notifications != nil {
		s.NotificationsOff = !*in.Notifications
	}
}
