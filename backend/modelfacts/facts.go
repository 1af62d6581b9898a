// Package modelfacts knows a model's context window, answer limit and
// prices, each from the best source there is: the user's override
// (settings.json's models), what the server reports of the model, the
// built-in table, or a guess shown as one (docs/MODELS.md).
package modelfacts

import (
	"strings"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// Fact is one fact of a model and where it came from.
type Fact[T any] struct {
	Value T
	From  wire.FactSource
}

// Facts are what Pilot knows of a model.
type Facts struct {
	Model string
	// Server names the server that runs the model: a preset's name
	// ("Ollama", "LM Studio"), else the base URL's host.
	Server    string
	Window    Fact[int] // the context window in tokens
	MaxOutput Fact[int] // the model's answer limit in tokens
	// Prices: a nil Value is no price known (From is guess).
	Prices Fact[*llm.Prices]
	// Loaded is the context the server has the model loaded with, where
	// it says (Ollama, LM Studio): a longer conversation is cut by the
	// server. 0: not loaded, or not said.
	Loaded int
}

// Answer limits sent when the configuration sets none (AnswerLimit).
const (
	// GuessedAnswerLimit is sent when the model's limit is not known.
	GuessedAnswerLimit = 8192
	// MaxDefaultAnswer caps the limit taken from the table or the
	// server, as Claude Code's default does: a larger answer is rare, and
	// the limit counts against the window on some servers.
	MaxDefaultAnswer = 32_000
)

// Resolve puts together a model's facts from the user's override, what
// the server reported (server: false when it said nothing) and the
// built-in table, each fact from the first that has it, else a guess.
func Resolve(model string, override config.ModelOverride, rep llm.Reported, server bool) Facts {
	f := Facts{Model: model}
	if server {
		f.Loaded = rep.Loaded
	}
	row, inTable := llm.LookupModel(model)
	var tablePrices *llm.Prices
	if inTable && (row.Input > 0 || row.Output > 0) { // a row may give the window only
		tablePrices = &llm.Prices{Input: row.Input, Output: row.Output, CacheRead: row.CacheRead, CacheWrite: row.CacheWrite}
	}
	f.Window = first(
		Fact[int]{override.Window, wire.FactOverride},
		Fact[int]{when(server, rep.Window), wire.FactServer},
		Fact[int]{when(inTable, row.ContextWindow), wire.FactTable},
		Fact[int]{llm.ContextWindow(model), wire.FactGuess})
	f.MaxOutput = first(
		Fact[int]{override.MaxOutput, wire.FactOverride},
		Fact[int]{when(server, rep.MaxOutput), wire.FactServer},
		Fact[int]{when(inTable, row.MaxOutput), wire.FactTable},
		Fact[int]{GuessedAnswerLimit, wire.FactGuess})
	f.Prices = first(
		Fact[*llm.Prices]{override.Prices, wire.FactOverride},
		Fact[*llm.Prices]{when(server, rep.Prices), wire.FactServer},
		Fact[*llm.Prices]{tablePrices, wire.FactTable},
		Fact[*llm.Prices]{nil, wire.FactGuess})
	return f
}

// first is the first fact with a value (the last one whatever it holds).
func first[T comparable](facts ...Fact[T]) Fact[T] {
	var zero T
	for _, f := range facts[:len(facts)-1] {
		if f.Value != zero {
			return f
		}
	}
	return facts[len(facts)-1]
}

// when is v when ok, else v's zero.
func when[T any](ok bool, v T) T {
	if !ok {
		var zero T
		return zero
	}
	return v
}

// Override finds the user's override of model: by its exact id, else
// ignoring case.
func Override(overrides map[string]config.ModelOverride, model string) config.ModelOverride {
	if o, ok := overrides[model]; ok {
		return o
	}
	for id, o := range overrides {
		if strings.EqualFold(id, model) {
			return o
		}
	}
	return config.ModelOverride{}
}

// AnswerLimit is the answer limit to send when the configuration sets
// none: the user's stated limit; the model's own (table or server) up
// to MaxDefaultAnswer; GuessedAnswerLimit when not known. It is never
// more than a fifth of a window a source states: the room the agent
// leaves above its compaction point (80% of the window), since some
// servers refuse a request whose input and answer limit exceed it.
func (f Facts) AnswerLimit() int {
	n := f.MaxOutput.Value
	if f.MaxOutput.From == wire.FactServer || f.MaxOutput.From == wire.FactTable {
		n = min(n, MaxDefaultAnswer)
	}
	if f.Window.From != wire.FactGuess && f.MaxOutput.From != wire.FactOverride {
		n = min(n, max(f.Window.Value/5, 1))
	}
	return n
}

// Cost is the price of usage in US dollars; known is false when no price
// is known.
func (f Facts) Cost(u llm.Usage) (usd float64, known bool) {
	switch {
	case f.Prices.Value == nil:
		return 0, false
	case f.Prices.From == wire.FactTable:
		return llm.Cost(f.Model, u) // with the table's long-prompt prices
	}
	return llm.PriceOf(*f.Prices.Value, u), true
}

// Wire is the facts as the window and `pilot models --json` show them.
func (f Facts) Wire() wire.ModelFacts {
	return wire.ModelFacts{ID: f.Model,
		Window: f.Window.Value, WindowSource: f.Window.From,
		MaxOutput: f.MaxOutput.Value, MaxOutputSource: f.MaxOutput.From,
		Prices: f.Prices.Value, PricesSource: f.Prices.From, Loaded: f.Loaded}
}
