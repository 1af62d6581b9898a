package config

import (
	"fmt"
	"sort"
	"strings"

	"pilot/backend/llm"
)

// ModelOverride is what the user states of a model (settings.json's
// models, Settings › Models): each fact set here wins over what the
// server and the built-in table say. Zero fields are not set.
type ModelOverride struct {
	Window    int         `json:"window,omitempty"`    // the context window in tokens
	MaxOutput int         `json:"maxOutput,omitempty"` // the answer limit in tokens
	Prices    *llm.Prices `json:"prices,omitempty"`    // US dollars per million tokens
}

// Bounds of a model override.
const (
	MinWindow = 1_000
	MaxWindow = 100_000_000
)

// CheckModels says what is wrong with the user's model overrides, in a
// sentence naming the model and what to fix; nil when they are good.
func CheckModels(models map[string]ModelOverride) error {
	ids := make([]string, 0, len(models))
	for id := range models {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		m := models[id]
		where := fmt.Sprintf("the model %q in Settings › Models (settings.json's models)", id)
		switch {
		case strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\n\r\t"):
			return fmt.Errorf("a model in Settings › Models (settings.json's models) has no usable id: name it as the server does, like qwen3-coder:30b")
		case m.Window != 0 && (m.Window < MinWindow || m.Window > MaxWindow):
			return fmt.Errorf("%s has a window of %d tokens: give one from %d to %d", where, m.Window, MinWindow, MaxWindow)
		case m.MaxOutput < 0 || m.MaxOutput > MaxWindow:
			return fmt.Errorf("%s has an answer limit of %d tokens: give one from 1 to %d, or none", where, m.MaxOutput, MaxWindow)
		case m.Window != 0 && m.MaxOutput > m.Window:
			return fmt.Errorf("%s has an answer limit (%d) larger than its window (%d): lower the limit", where, m.MaxOutput, m.Window)
		case m.Prices != nil && (m.Prices.Input < 0 || m.Prices.Output < 0 || m.Prices.CacheRead < 0 || m.Prices.CacheWrite < 0):
			return fmt.Errorf("%s has a negative price: give prices in US dollars per million tokens, 0 or more", where)
		}
	}
	return nil
}
