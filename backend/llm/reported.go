package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"pilot/backend/wire"
)

// Reported is what a server says of one of its models; a zero field is
// one it does not say.
type Reported struct {
	// Window is the model's context window in tokens (OpenRouter's
	// context_length, Ollama's trained context, LM Studio's
	// max_context_length, vLLM's max_model_len, llama.cpp's n_ctx).
	Window int `json:"window,omitempty"`
	// Loaded is the context the model is loaded with right now, where the
	// server runs it and says (Ollama's /api/ps, LM Studio's
	// loaded_context_length): a conversation longer than it is cut by
	// the server. 0: not loaded, or not said.
	Loaded int `json:"loaded,omitempty"`
	// Configured is the context the server is set to load the model
	// with when it is not loaded yet: Ollama's num_ctx parameter of the
	// model (its Modelfile). 0: not said; the server's own default applies.
	Configured int `json:"configured,omitempty"`
	// MaxOutput is the model's answer limit in tokens.
	MaxOutput int `json:"maxOutput,omitempty"`
	// Prices are the model's prices; nil when the server gives none.
	Prices *Prices `json:"prices,omitempty"`
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

// maxReportedTokens bounds what a server may say of a window or an answer
// limit: a larger number is not believed.
const maxReportedTokens = 100_000_000

// Report asks the server cfg names what it says of model: OpenRouter's
// model list, Ollama's /api/show and /api/ps, LM Studio's /api/v1/models
// (or /api/v0/models before LM Studio 0.4), vLLM's /v1/models and
// llama.cpp's /props. The generic "openai" choice with a base URL of its
// own is asked as Ollama, the most common server behind it, then as vLLM
// (its /models with max_model_len). Only cfg's server is asked (no
// redirect to another host is followed), with cfg's key and retry policy.
// It returns ErrNotReported for a server (or a model) it has nothing from,
// and the server's failure (an *Error, the key redacted) otherwise.
func Report(ctx context.Context, cfg Config, model string) (Reported, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return Reported{}, err
	}
	if model = strings.TrimSpace(model); model == "" {
		model = cfg.Model
	}
	if model == "" || Protocol(cfg.Provider) != ProviderOpenAI {
		return Reported{}, ErrNotReported
	}
	cfg.HTTPClient = sameHostOnly(cfg.HTTPClient)
	o := NewOpenAI(cfg)
	var r Reported
	switch reportingServer(cfg) {
	case "openrouter":
		r, err = o.reportOpenRouter(ctx, model)
	case "vllm":
		r, err = o.reportVLLM(ctx, model)
	case "llamacpp":
		r, err = o.reportLlamaCpp(ctx)
	case "lmstudio":
		r, err = o.reportLMStudio(ctx, model)
	case "ollama":
		r, err = o.reportOllama(ctx, model)
	case "":
		r, err = o.reportOllama(ctx, model)
		if notThisServer(err) {
			r, err = o.reportVLLM(ctx, model) // its own /models, where vLLM says max_model_len
			if notThisServer(err) {
				err = ErrNotReported
			}
		}
	default:
		return Reported{}, ErrNotReported
	}
	if err != nil {
		return Reported{}, err
	}
	if r == (Reported{}) {
		return Reported{}, ErrNotReported
	}
	return r, nil
}

// sameHostOnly is client (default http.DefaultClient) following no
// redirect to another host: Report asks the configured server and nothing
// else.
func sameHostOnly(client *http.Client) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("the server redirected 10 times; check the base URL")
		}
		if !strings.EqualFold(req.URL.Host, via[0].URL.Host) {
			return fmt.Errorf("the server redirected to another host (%s); Pilot asks only the configured server, so check the base URL", req.URL.Host)
		}
		return nil
	}
	return &c
}

// notThisServer: err is the answer of a server that is not the one asked
// (or does not know the model), not a failure to reach it.
func notThisServer(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Kind {
	case KindCancelled, KindNetwork, KindStalled:
		return false
	}
	return true
}

// reportingServer names the server cfg talks to, for Report: the preset's
// id; for the generic choice, the hosted preset whose host the base URL
// is on (OPENAI_BASE_URL=https://openrouter.ai/api/v1 is OpenRouter), ""
// for a server of the user's own, and "openai" for OpenAI's API.
func reportingServer(cfg Config) string {
	if cfg.Provider != ProviderOpenAI {
		return cfg.Provider
	}
	host := urlHost(cfg.BaseURL)
	for _, p := range presets {
		if !p.Local && urlHost(p.BaseURL) == host {
			return p.ID
		}
	}
	return ""
}

// serverRoot is the server's root: the base URL without /v1, where
// Ollama's, LM Studio's and llama.cpp's own endpoints are.
func (o *OpenAI) serverRoot() endpoint {
	ep := o.ep
	ep.base = strings.TrimSuffix(ep.base, "/v1")
	return ep
}

// tokens is a reported count of tokens, 0 when it is not believable.
func tokens(n int64) int {
	if n <= 0 || n > maxReportedTokens {
		return 0
	}
	return int(n)
}

// perMillion reads a price in US dollars per token given as a decimal
// string (OpenRouter's "0.000003") as dollars per million tokens; ok is
// false for a price that is absent, unreadable or negative.
func perMillion(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v * 1e6, true
}

// openRouterModel is an entry of OpenRouter's GET /models
// (https://openrouter.ai/docs/api-reference/models/get-models).
type openRouterModel struct {
	ID            string `json:"id"`
	CanonicalSlug string `json:"canonical_slug"`
	ContextLength int64  `json:"context_length"`
	TopProvider   struct {
		ContextLength       int64 `json:"context_length"`
		MaxCompletionTokens int64 `json:"max_completion_tokens"`
	} `json:"top_provider"`
	Pricing struct {
		Prompt          string `json:"prompt"`
		Completion      string `json:"completion"`
		InputCacheRead  string `json:"input_cache_read"`
		InputCacheWrite string `json:"input_cache_write"`
	} `json:"pricing"`
}

// reportOpenRouter reads model's entry of OpenRouter's model list: its
// window, answer limit and prices (per token there, per million here).
// A model whose input or output price is unreadable or negative
// (openrouter/auto's "-1": the price of the model it picks) has none.
func (o *OpenAI) reportOpenRouter(ctx context.Context, model string) (Reported, error) {
	data, err := dataList[openRouterModel](ctx, &o.ep, "/models")
	if err != nil {
		return Reported{}, err
	}
	for _, m := range data {
		if strings.EqualFold(m.ID, model) || strings.EqualFold(m.CanonicalSlug, model) {
			return m.reported(), nil
		}
	}
	return Reported{}, ErrNotReported
}

// ReportAll is Report of every model of a server whose one model list
// says it all (OpenRouter's), by id, in one request; other servers give
// ErrNotReported (ask them model by model).
func ReportAll(ctx context.Context, cfg Config) (map[string]Reported, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if Protocol(cfg.Provider) != ProviderOpenAI || reportingServer(cfg) != "openrouter" {
		return nil, ErrNotReported
	}
	cfg.HTTPClient = sameHostOnly(cfg.HTTPClient)
	data, err := dataList[openRouterModel](ctx, &NewOpenAI(cfg).ep, "/models")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Reported, len(data))
	for _, m := range data {
		if r := m.reported(); r != (Reported{}) {
			out[m.ID] = r
		}
	}
	return out, nil
}

// reported is what an entry of OpenRouter's list says of its model.
func (m openRouterModel) reported() Reported {
	r := Reported{Window: tokens(m.ContextLength), MaxOutput: tokens(m.TopProvider.MaxCompletionTokens)}
	if r.Window == 0 {
		r.Window = tokens(m.TopProvider.ContextLength)
	}
	in, okIn := perMillion(m.Pricing.Prompt)
	out, okOut := perMillion(m.Pricing.Completion)
	if okIn && okOut {
		p := &Prices{Input: in, Output: out}
		p.CacheRead, _ = perMillion(m.Pricing.InputCacheRead)
		p.CacheWrite, _ = perMillion(m.Pricing.InputCacheWrite)
		r.Prices = p
	}
	return r
}

// reportVLLM reads model's max_model_len from vLLM's model list (its
// ModelCard, vllm/entrypoints/openai/protocol.py): the longest
// conversation the server was started for.
func (o *OpenAI) reportVLLM(ctx context.Context, model string) (Reported, error) {
	data, err := dataList[struct {
		ID          string `json:"id"`
		MaxModelLen int64  `json:"max_model_len"`
	}](ctx, &o.ep, "/models")
	if err != nil {
		return Reported{}, err
	}
	for _, m := range data {
		if m.ID == model {
			return Reported{Window: tokens(m.MaxModelLen)}, nil
		}
	}
	return Reported{}, ErrNotReported
}

// reportLlamaCpp reads the context of llama.cpp's server (GET /props,
// tools/server/README.md): default_generation_settings.n_ctx, the context
// of one slot, which is what one conversation can use. The server runs
// one model, whatever the request names.
func (o *OpenAI) reportLlamaCpp(ctx context.Context) (Reported, error) {
	var props struct {
		Settings struct {
			NCtx int64 `json:"n_ctx"`
		} `json:"default_generation_settings"`
		NCtx int64 `json:"n_ctx"`
	}
	ep := o.serverRoot()
	if err := ep.getJSON(ctx, "/props", &props); err != nil {
		return Reported{}, err
	}
	n := props.Settings.NCtx
	if n == 0 {
		n = props.NCtx
	}
	return Reported{Window: tokens(n)}, nil
}
