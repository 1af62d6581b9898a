package modelfacts

import (
	"testing"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestResolveOrder: each fact comes from the user's override, else the
// server, else the table, else a guess, fact by fact.
func TestResolveOrder(t *testing.T) {
	t.Parallel()
	prices := &llm.Prices{Input: 1, Output: 2}
	for _, c := range []struct {
		name                  string
		model                 string
		override              config.ModelOverride
		rep                   llm.Reported
		server                bool
		window, out           int
		windowOf, outOf, cost wire.FactSource
	}{
		{"the table", "claude-sonnet-4-5", config.ModelOverride{}, llm.Reported{}, false, 200_000, 64_000, wire.FactTable, wire.FactTable, wire.FactTable},
		{"a guess", "qwen3-coder:30b", config.ModelOverride{}, llm.Reported{}, false, llm.LocalContextWindow, GuessedAnswerLimit, wire.FactGuess, wire.FactGuess, wire.FactGuess},
		{"the server over the table", "claude-sonnet-4-5", config.ModelOverride{}, llm.Reported{Window: 1_000_000}, true, 1_000_000, 64_000, wire.FactServer, wire.FactTable, wire.FactTable},
		{"the server over a guess", "google/gemini-2.5-pro", config.ModelOverride{}, llm.Reported{Window: 1_048_576, MaxOutput: 65_536, Prices: prices}, true, 1_048_576, 65_536, wire.FactServer, wire.FactServer, wire.FactServer},
		{"what a server did not say is not the server's", "qwen3-coder:30b", config.ModelOverride{}, llm.Reported{Window: 262_144}, true, 262_144, GuessedAnswerLimit, wire.FactServer, wire.FactGuess, wire.FactGuess},
		{"a report not given counts for nothing", "qwen3-coder:30b", config.ModelOverride{}, llm.Reported{Window: 262_144}, false, llm.LocalContextWindow, GuessedAnswerLimit, wire.FactGuess, wire.FactGuess, wire.FactGuess},
		{"the override over all", "claude-sonnet-4-5", config.ModelOverride{Window: 500_000, Prices: prices}, llm.Reported{Window: 1_000_000}, true, 500_000, 64_000, wire.FactOverride, wire.FactTable, wire.FactOverride},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := Resolve(c.model, c.override, c.rep, c.server)
			if f.Window != (Fact[int]{c.window, c.windowOf}) || f.MaxOutput != (Fact[int]{c.out, c.outOf}) || f.Prices.From != c.cost {
				t.Errorf("got window %+v, answer limit %+v, prices from %s; want %d from %s, %d from %s, prices from %s",
					f.Window, f.MaxOutput, f.Prices.From, c.window, c.windowOf, c.out, c.outOf, c.cost)
			}
			if _, known := f.Cost(llm.Usage{InputTokens: 1000}); known != (c.cost != wire.FactGuess) {
				t.Errorf("cost known %v with prices from %s", known, c.cost)
			}
		})
	}
}

// TestAnswerLimit: the limit sent when the configuration sets none.
func TestAnswerLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		f    Facts
		want int
	}{
		{"a guess", Resolve("some-local-model", config.ModelOverride{}, llm.Reported{}, false), GuessedAnswerLimit},
		{"the table's, capped", Resolve("claude-sonnet-4-5", config.ModelOverride{}, llm.Reported{}, false), MaxDefaultAnswer},
		{"the table's, under the cap", Resolve("gpt-4o", config.ModelOverride{}, llm.Reported{}, false), 16_384},
		{"a fifth of a small window a server states", Resolve("llama3", config.ModelOverride{}, llm.Reported{Window: 8192, MaxOutput: 8192}, true), 8192 / 5},
		{"the user's, as stated", Resolve("tuned", config.ModelOverride{Window: 100_000, MaxOutput: 90_000}, llm.Reported{}, false), 90_000},
	} {
		if got := c.f.AnswerLimit(); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCost: the prices in force price the usage, cache writes without a
// price of their own as input.
func TestCost(t *testing.T) {
	t.Parallel()
	f := Resolve("tuned", config.ModelOverride{Prices: &llm.Prices{Input: 2, Output: 10, CacheRead: 0.2}}, llm.Reported{}, false)
	usd, known := f.Cost(llm.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 500_000})
	if want := 2 + 1 + 0.2 + 1; !known || usd < want-1e-9 || usd > want+1e-9 {
		t.Errorf("cost %v known %v, want %v", usd, known, want)
	}
}
