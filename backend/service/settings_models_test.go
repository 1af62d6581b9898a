package service

import (
	"errors"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// TestSetModelOverride: Settings › Models saves an override to
// settings.json, lists it, refuses one out of bounds with its sentence
// alone (nothing saved), and removes one with no fact set.
func TestSetModelOverride(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w := openAt(t, home, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"})
	t.Cleanup(w.Close)
	v, err := w.Settings.SetModelOverride(wire.ModelOverride{ID: "qwen3-coder:30b", Window: 262_144, Prices: &wire.ModelPrices{Input: 0.4, Output: 1.6}})
	if err != nil || len(v.ModelOverrides) != 1 || v.ModelOverrides[0].Window != 262_144 {
		t.Fatalf("saved: %+v %v", v.ModelOverrides, err)
	}
	_, err = w.Settings.SetModelOverride(wire.ModelOverride{ID: "qwen3-coder:30b", Window: 10})
	if err == nil || !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "give one from 1000") || strings.HasSuffix(err.Error(), "argument") {
		t.Errorf("out of bounds: %v", err)
	}
	s, err := config.LoadSettings(home)
	if err != nil || s.Models["qwen3-coder:30b"].Window != 262_144 {
		t.Errorf("a refused override changed the file: %+v %v", s.Models, err)
	}
	if v, err = w.Settings.SetModelOverride(wire.ModelOverride{ID: "qwen3-coder:30b"}); err != nil || len(v.ModelOverrides) != 0 {
		t.Errorf("removed: %+v %v", v.ModelOverrides, err)
	}
}
