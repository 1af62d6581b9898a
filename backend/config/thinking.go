package config

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"pilot/backend/llm"
)

// thinkingEnv overrides the saved thinking budget; 0 turns thinking off.
const thinkingEnv = "PILOT_THINKING_BUDGET"

// CheckThinking says what is wrong with budget as the extended-thinking
// budget of model's calls, or nil. 0 is off; otherwise Anthropic needs at
// least llm.MinThinkingBudget tokens, and fewer than the model writes per
// answer (checked when the model is a known Claude model).
func CheckThinking(budget int, model string) error {
	if budget == 0 {
		return nil
	}
	if budget < llm.MinThinkingBudget {
		return fmt.Errorf("a thinking budget of %d tokens is too small: Anthropic needs at least %d; choose %d or more, or 0 to turn thinking off", budget, llm.MinThinkingBudget, llm.MinThinkingBudget)
	}
	if m, ok := llm.LookupModel(model); ok && m.Provider == llm.ProviderAnthropic && budget >= m.MaxOutput {
		return fmt.Errorf("a thinking budget of %d tokens is not below the %d tokens %s writes per answer at most; choose a smaller budget, or 0 to turn thinking off", budget, m.MaxOutput, model)
	}
	return nil
}

// resolveThinking picks the thinking budget: PILOT_THINKING_BUDGET, else
// the saved one, else off. Only Anthropic thinks with a budget, so the
// model's limit is checked for it alone. A bad environment value is an
// error; a bad saved one a warning, and thinking stays off.
func resolveThinking(env func(string) string, saved int, provider, model, home string, warnings *[]string) (Value[int], error) {
	if provider != llm.ProviderAnthropic {
		model = ""
	}
	if raw := strings.TrimSpace(env(thinkingEnv)); raw != "" {
		budget, err := strconv.Atoi(raw)
		if err != nil {
			return Value[int]{}, fmt.Errorf("%s=%q is not a number of tokens: use 0 (off) or a budget of at least %d, e.g. 16384", thinkingEnv, raw, llm.MinThinkingBudget)
		}
		if err := CheckThinking(budget, model); err != nil {
			return Value[int]{}, fmt.Errorf("%s=%d: %w", thinkingEnv, budget, err)
		}
		return Value[int]{Value: budget, Source: SourceEnv, From: thinkingEnv}, nil
	}
	if saved == 0 {
		return Value[int]{Source: SourceDefault}, nil
	}
	if err := CheckThinking(saved, model); err != nil {
		*warnings = append(*warnings, fmt.Sprintf("%s: %v. Thinking is off until then.", filepath.Join(home, SettingsFile), err))
		return Value[int]{Source: SourceDefault}, nil
	}
	return Value[int]{Value: saved, Source: SourceSettings}, nil
}

// ThinkingBudget is the extended-thinking budget of a turn's model calls:
// the setting for Anthropic, 0 for OpenAI-compatible servers (their
// reasoning models think on their own).
func (r Resolved) ThinkingBudget() int {
	if r.Provider.Value != llm.ProviderAnthropic {
		return 0
	}
	return r.Thinking.Value
}
