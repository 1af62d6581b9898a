package service

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestThinkingSetting: the budget saved in Settings reaches the turn's
// requests to Anthropic and not those to an OpenAI-compatible server;
// PILOT_THINKING_BUDGET overrides it, and the view says so.
func TestThinkingSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		provider string
		env      map[string]string
		view     string // thinkingBudget source from
		sent     string // the request's thinking, "<nil>" for none
	}{
		{"saved", llm.ProviderAnthropic, nil, "16384 settings ", "map[budget_tokens:16384 type:enabled]"},
		{"the environment turns it off", llm.ProviderAnthropic, map[string]string{"PILOT_THINKING_BUDGET": "0"}, "0 env PILOT_THINKING_BUDGET", "<nil>"},
		{"the environment sets another", llm.ProviderAnthropic, map[string]string{"PILOT_THINKING_BUDGET": "4096"}, "4096 env PILOT_THINKING_BUDGET", "map[budget_tokens:4096 type:enabled]"},
		{"OpenAI-compatible servers are sent nothing", llm.ProviderOpenAI, nil, "16384 settings ", "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello."}}})
			t.Cleanup(srv.Close)
			w := newWorkspace(t, tt.env)
			ev := newWaiter()
			w.SetEmitter(ev)
			ctx := context.Background()
			in := wire.SettingsInput{Provider: tt.provider, BaseURL: srv.URL(), APIKey: "sk-test", ApprovalMode: "ask", ThinkingBudget: 16384}
			if tt.provider == llm.ProviderOpenAI {
				in.BaseURL, in.Model = srv.OpenAIBaseURL(), "gpt-4.1"
			}
			v, err := w.Settings.Save(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(v.ThinkingBudget, " ", v.Source["thinkingBudget"], " ", v.SourceFrom["thinkingBudget"]); got != tt.view {
				t.Errorf("view %q, want %q", got, tt.view)
			}
			p, err := w.Projects.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s, err := w.Sessions.New(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Turns.SendMessage(ctx, s.ID, "Hi", nil); err != nil {
				t.Fatal(err)
			}
			ev.wait(t, func(e any) bool { _, ok := e.(wire.TurnDonePayload); return ok })
			reqs := srv.ModelRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if got := fmt.Sprint(reqs[0].Body["thinking"]); got != tt.sent {
				t.Errorf("thinking sent: %s, want %s", got, tt.sent)
			}
		})
	}
}

// TestSaveThinkingChecks: a budget Anthropic would refuse is not saved,
// and the error says what to choose.
func TestSaveThinkingChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, model string
		budget          int
		err             string
	}{
		{llm.ProviderAnthropic, "", 500, "extended thinking: a thinking budget of 500 tokens is too small: Anthropic needs at least 1024; choose 1024 or more, or 0 to turn thinking off"},
		{llm.ProviderAnthropic, "claude-3-5-haiku", 16384, "not below the 8192 tokens claude-3-5-haiku writes per answer at most; choose a smaller budget"},
		{llm.ProviderOpenAI, "gpt-4.1", -1, "at least 1024"},
		{llm.ProviderAnthropic, "claude-opus-4-1", 31999, ""},
		{llm.ProviderOpenAI, "gpt-4.1", 0, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.provider, " ", tt.model, " ", tt.budget), func(t *testing.T) {
			t.Parallel()
			w := newWorkspace(t, nil)
			_, err := w.Settings.Save(wire.SettingsInput{Provider: tt.provider, Model: tt.model, ApprovalMode: "ask", ThinkingBudget: tt.budget})
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err %v, want %q", err, tt.err)
			}
		})
	}
}
