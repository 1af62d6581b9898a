package llm

import (
	"math"
	"testing"
)

func TestCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model string
		u     Usage
		want  float64
		known bool
	}{
		{"claude-sonnet-4-5", Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 3 + 15 + 0.30 + 3.75, true},
		{"claude-sonnet-4-5-20250929", Usage{OutputTokens: 1000}, 0.015, true},
		{"anthropic/claude-sonnet-4.5", Usage{InputTokens: 1000}, 0.003, true},
		{"gpt-4o", Usage{InputTokens: 1_000_000, CacheReadTokens: 1_000_000}, 2.50 + 1.25, true},
		{"gpt-4.1-2025-04-14", Usage{OutputTokens: 1_000_000}, 8, true},
		{"o3", Usage{InputTokens: 500_000}, 1, true},
		{"llama3.1:8b", Usage{InputTokens: 1000}, 0, false},
		{"claude-opus-5-5", Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 4 + 20 + 0.20 + 5, true},
		{"anthropic/claude-sonnet-5.5", Usage{InputTokens: 1000}, 0.002, true},
		{"claude-fable-5-2", Usage{InputTokens: 1000}, 0, false}, // no cache prices found: no price
		{"gemini-2.5-pro", Usage{InputTokens: 1000}, 0, false},
		{"deepseek-v4-flash", Usage{InputTokens: 1_000_000, CacheReadTokens: 1_000_000, OutputTokens: 1_000_000}, 0.30 + 0.006 + 1.20, true},
		// OpenAI's GPT-6 prices double past 272K tokens of prompt, cache included
		{"gpt-6.2-sol", Usage{InputTokens: 200_000, CacheReadTokens: 72_000}, 200_000*2e-6 + 72_000*0.10e-6, true},
		{"gpt-6.2-sol", Usage{InputTokens: 200_000, CacheReadTokens: 72_001, OutputTokens: 1000}, 200_000*4e-6 + 72_001*0.20e-6 + 1000*15e-6, true},
		{"openai/gpt-6-luna", Usage{InputTokens: 300_000}, 300_000 * 0.20e-6, true},
	}
	for _, tt := range tests {
		got, known := Cost(tt.model, tt.u)
		if known != tt.known || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Cost(%s) = %v, %v; want %v, %v", tt.model, got, known, tt.want, tt.known)
		}
	}
}

func TestContextWindow(t *testing.T) {
	t.Parallel()
	tests := map[string]int{
		"claude-sonnet-4-5":          200_000,
		"claude-future-9":            200_000,
		"gpt-4.1":                    1_047_576,
		"gpt-4o-mini":                128_000,
		"gpt-9":                      DefaultContextWindow,
		"o3":                         200_000,
		"qwen2.5-coder:7b":           LocalContextWindow,
		"google/gemini-2.5-pro":      1_048_576,
		"deepseek/deepseek-v4-flash": 1_000_000,
		"claude-fable-5-2":           1_000_000,
		"openai/gpt-6.2-astra":       1_050_000,
		"x-ai/grok-code-fast-1":      256_000,
	}
	for model, want := range tests {
		if got := ContextWindow(model); got != want {
			t.Errorf("ContextWindow(%s) = %d, want %d", model, got, want)
		}
	}
	if DefaultMaxTokens("claude-3-5-haiku") != 8192 || DefaultMaxTokens("unknown") != 8192 || DefaultMaxTokens("gemini-2.5-pro") != 8192 || DefaultMaxTokens("grok-code-fast-1") != 8192 {
		t.Error("DefaultMaxTokens")
	}
}

// TestModelTable: every row has a window and an answer limit within it,
// all of its prices or none, and an id of its own; every long-prompt price
// is of a priced row.
func TestModelTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, m := range models {
		n := normalizeModel(m.ID)
		if seen[n] {
			t.Errorf("%s: twice in the table", m.ID)
		}
		seen[n] = true
		if m.ContextWindow <= 0 || m.MaxOutput < 0 || m.MaxOutput > m.ContextWindow {
			t.Errorf("%s: window %d, answer limit %d", m.ID, m.ContextWindow, m.MaxOutput)
		}
		priced := m.Input > 0 && m.Output > 0 && m.CacheRead > 0
		none := m.Input == 0 && m.Output == 0 && m.CacheRead == 0 && m.CacheWrite == 0
		if !priced && !none {
			t.Errorf("%s: some prices but not all: %+v", m.ID, m)
		}
	}
	for id, long := range longPrompt {
		m, ok := LookupModel(id)
		if !ok || m.Input == 0 || long.above <= 0 || long.prices.Input <= m.Input {
			t.Errorf("long-prompt prices of %s: %+v for %+v", id, long, m)
		}
	}
}

func TestPresets(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"ollama":     "http://localhost:11434/v1",
		"lmstudio":   "http://localhost:1234/v1",
		"llamacpp":   "http://localhost:8080/v1",
		"openrouter": "https://openrouter.ai/api/v1",
		"openai":     "https://api.openai.com/v1",
		"anthropic":  "https://api.anthropic.com",
		"deepseek":   "https://api.deepseek.com",
		"mistral":    "https://api.mistral.ai/v1",
		"groq":       "https://api.groq.com/openai/v1",
		"gemini":     "https://generativelanguage.googleapis.com/v1beta/openai",
		"xai":        "https://api.x.ai/v1",
		"vllm":       "http://localhost:8000/v1",
	}
	for _, p := range Presets() {
		if want[p.ID] != p.BaseURL {
			t.Errorf("preset %s: %s", p.ID, p.BaseURL)
		}
		delete(want, p.ID)
	}
	if len(want) != 0 {
		t.Errorf("missing presets %v", want)
	}
}
