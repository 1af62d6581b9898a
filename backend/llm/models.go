package llm

import (
	"regexp"
	"strings"
)

// Model describes a known model: its context window, output limit and
// prices in US dollars per million tokens. A model whose prices are all 0
// has none in the table: Cost says it does not know them.
type Model struct {
	ID            string
	Provider      string // the preset whose documentation the figures are from
	ContextWindow int
	MaxOutput     int // 0: the provider states none
	Input         float64
	Output        float64
	CacheRead     float64
	CacheWrite    float64 // 0 where the provider does not charge writes
}

// ModelInfo is one entry of a server's model list.
type ModelInfo struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
	Known       bool   `json:"known"` // the model table has it (its window; its prices where it has them)
}

// Defaults used when nothing else is known.
const (
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1"
	// DefaultContextWindow is assumed for unknown hosted models.
	DefaultContextWindow = 128_000
	// LocalContextWindow is assumed for unknown models, which are mostly
	// local ones (Ollama, LM Studio, llama.cpp).
	LocalContextWindow = 32_000
	defaultMaxTokens   = 8192
)

var modelIndex = func() map[string]Model {
	m := make(map[string]Model, len(models))
	for _, md := range models {
		m[normalizeModel(md.ID)] = md
	}
	return m
}()

// dateSuffix matches the snapshot dates of model ids ("-20250929",
// "-2024-08-06") and "-latest".
var dateSuffix = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$`)

// normalizeModel makes ids comparable: lower case, without a vendor prefix
// ("anthropic/", "openai/"), a snapshot date, or dots ("claude-sonnet-4.5").
func normalizeModel(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	id = dateSuffix.ReplaceAllString(id, "")
	return strings.ReplaceAll(id, ".", "-")
}

// LookupModel finds a model in the table by its id, a dated snapshot id, or
// an OpenRouter-style id.
func LookupModel(id string) (Model, bool) {
	m, ok := modelIndex[normalizeModel(id)]
	return m, ok
}

// ContextWindow returns the model's context window in tokens: from the
// table, 200k for other Claude models, DefaultContextWindow for other
// OpenAI models, and LocalContextWindow for everything else.
func ContextWindow(model string) int {
	if m, ok := LookupModel(model); ok {
		return m.ContextWindow
	}
	n := normalizeModel(model)
	switch {
	case strings.HasPrefix(n, "claude"):
		return 200_000
	case strings.HasPrefix(n, "gpt-") || reasoningModel(n):
		return DefaultContextWindow
	}
	return LocalContextWindow
}

// DefaultMaxTokens is the answer limit sent when none is configured: 8192,
// or less when the model's output limit is lower.
func DefaultMaxTokens(model string) int {
	if m, ok := LookupModel(model); ok && m.MaxOutput > 0 && m.MaxOutput < defaultMaxTokens {
		return m.MaxOutput
	}
	return defaultMaxTokens
}

// Cost returns the price of one call in US dollars; known is false when the
// table has no prices for the model (local models, unknown ids, models
// whose prices the table leaves out). A call whose prompt (input, cache
// reads and cache writes) is longer than the model's long-prompt threshold
// is priced at its long-prompt prices, every token of it.
func Cost(model string, u Usage) (usd float64, known bool) {
	m, ok := LookupModel(model)
	if !ok || (m.Input == 0 && m.Output == 0) {
		return 0, false
	}
	n := func(tokens int) float64 { return float64(max(0, tokens)) } // never less than nothing
	p := Prices{Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheWrite: m.CacheWrite}
	if long, ok := longPrompt[normalizeModel(m.ID)]; ok && n(u.InputTokens)+n(u.CacheReadTokens)+n(u.CacheWriteTokens) > float64(long.above) {
		p = long.prices
	}
	return PriceOf(p, u), true
}

func modelInfo(id, display string) ModelInfo {
	_, known := LookupModel(id)
	return ModelInfo{ID: id, DisplayName: display, Known: known}
}
