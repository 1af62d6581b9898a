// Package keyvars lists, for tests, every environment variable that holds a
// provider's key: each preset's and Pilot's own. Tests set them all to
// recognisable values and check that none reaches a child process.
package keyvars

import (
	"slices"

	"pilot/backend/llm"
)

// All is every key variable, sorted: TS_AGENT_API_KEY and each preset's
// KeyEnv (read from the presets, so a preset added later is covered).
func All() []string {
	vars := []string{"TS_AGENT_API_KEY"}
	for _, p := range llm.Presets() {
		if p.KeyEnv != "" {
			vars = append(vars, p.KeyEnv)
		}
	}
	slices.Sort(vars)
	return slices.Compact(vars)
}
