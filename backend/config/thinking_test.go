package config

import (
	"strings"
	"testing"
)

func TestResolveThinking(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		saved   Settings
		env     map[string]string
		want    Value[int]
		budget  int    // what the calls use: ThinkingBudget()
		warning string // in the one warning, if any
		err     string // in the error, if any
	}{
		{name: "off by default", want: Value[int]{Source: SourceDefault}},
		{name: "saved", saved: Settings{ThinkingBudget: 16384},
			want: Value[int]{Value: 16384, Source: SourceSettings}, budget: 16384},
		{name: "the environment beats the file", saved: Settings{ThinkingBudget: 16384}, env: map[string]string{"PILOT_THINKING_BUDGET": " 4096 "},
			want: Value[int]{Value: 4096, Source: SourceEnv, From: "PILOT_THINKING_BUDGET"}, budget: 4096},
		{name: "0 in the environment turns it off", saved: Settings{ThinkingBudget: 16384}, env: map[string]string{"PILOT_THINKING_BUDGET": "0"},
			want: Value[int]{Source: SourceEnv, From: "PILOT_THINKING_BUDGET"}},
		{name: "below the model's output limit", saved: Settings{Model: "claude-opus-4-1", ThinkingBudget: 31999},
			want: Value[int]{Value: 31999, Source: SourceSettings}, budget: 31999},
		{name: "a model Pilot does not know is not limited", env: map[string]string{"PILOT_MODEL": "claude-next", "PILOT_THINKING_BUDGET": "100000"},
			want: Value[int]{Value: 100000, Source: SourceEnv, From: "PILOT_THINKING_BUDGET"}, budget: 100000},
		{name: "OpenAI-compatible servers ignore it", saved: Settings{Provider: "openai", ThinkingBudget: 16384},
			want: Value[int]{Value: 16384, Source: SourceSettings}},
		{name: "a saved budget under 1024 is a warning", saved: Settings{ThinkingBudget: 500},
			want: Value[int]{Source: SourceDefault}, warning: "at least 1024"},
		{name: "a saved budget the model cannot hold is a warning", saved: Settings{Model: "claude-3-5-haiku", ThinkingBudget: 16384},
			want: Value[int]{Source: SourceDefault}, warning: "not below the 8192 tokens claude-3-5-haiku writes"},
		{name: "not a number", env: map[string]string{"PILOT_THINKING_BUDGET": "16k"}, err: `PILOT_THINKING_BUDGET="16k" is not a number of tokens: use 0 (off) or a budget of at least 1024`},
		{name: "too small", env: map[string]string{"PILOT_THINKING_BUDGET": "100"}, err: "PILOT_THINKING_BUDGET=100: a thinking budget of 100 tokens is too small: Anthropic needs at least 1024"},
		{name: "negative", env: map[string]string{"PILOT_THINKING_BUDGET": "-1"}, err: "choose 1024 or more, or 0 to turn thinking off"},
		{name: "over the model's limit", env: map[string]string{"PILOT_MODEL": "claude-opus-4-1", "PILOT_THINKING_BUDGET": "32000"},
			err: "PILOT_THINKING_BUDGET=32000: a thinking budget of 32000 tokens is not below the 32000 tokens claude-opus-4-1 writes per answer at most; choose a smaller budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if err := SaveSettings(home, tt.saved); err != nil {
				t.Fatal(err)
			}
			r, err := Resolve(home, "", envOf(tt.env))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Thinking != tt.want || r.ThinkingBudget() != tt.budget {
				t.Errorf("thinking %+v (calls %d), want %+v (calls %d)", r.Thinking, r.ThinkingBudget(), tt.want, tt.budget)
			}
			switch {
			case tt.warning == "" && len(r.Warnings) != 0:
				t.Errorf("warnings: %v", r.Warnings)
			case tt.warning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tt.warning) || !strings.Contains(r.Warnings[0], "Thinking is off")):
				t.Errorf("warnings %v, want one with %q", r.Warnings, tt.warning)
			}
		})
	}
}
