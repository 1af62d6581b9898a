package service

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// The user's own language servers are saved through Settings, read back
// as saved, refused with a sentence when one is incomplete (nothing saved
// then), and kept beside the other settings.
func TestUserLanguageServers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := config.SaveSettings(home, config.Settings{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(string) string { return "" }, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := w.UserLanguageServers(); len(got) != 0 {
		t.Fatalf("a new home has servers %v", got)
	}
	zls := wire.LanguageServerConfig{Name: "zls", Command: []string{"zls"}, Patterns: []string{"**/*.zig"}}
	got, err := w.SetLanguageServers([]wire.LanguageServerConfig{{Name: " zls", Command: []string{"zls "}, Patterns: []string{"**/*.zig"}}})
	if err != nil || !reflect.DeepEqual(got, []wire.LanguageServerConfig{zls}) {
		t.Fatalf("saved %+v, %v", got, err)
	}
	if _, err := w.SetLanguageServers([]wire.LanguageServerConfig{{Name: "half", Command: []string{"half"}}}); err == nil || !strings.Contains(err.Error(), "serves no files") {
		t.Fatalf("an incomplete server: %v", err)
	}
	if got := w.UserLanguageServers(); !reflect.DeepEqual(got, []wire.LanguageServerConfig{zls}) {
		t.Errorf("after a refused save: %+v", got)
	}
	s, err := config.LoadSettings(home)
	if err != nil || s.Model != "m" || len(s.LanguageServers) != 1 {
		t.Errorf("settings file: %+v, %v", s, err)
	}
	if _, err := w.LanguageServers(0); err != nil {
		t.Error(err)
	}
}

func TestLanguageWait(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    string
		want time.Duration
	}{{"", 0}, {"10", 10 * time.Second}, {" 1.5 ", 1500 * time.Millisecond}, {"0", 0}, {"-2", 0}, {"600", 0}, {"soon", 0}} {
		got := languageWait(func(string) string { return c.v }, discardLog())
		if got != c.want {
			t.Errorf("PILOT_LSP_WAIT=%q: %v, want %v", c.v, got, c.want)
		}
	}
	if languageWait(nil, discardLog()) != 0 {
		t.Error("no environment")
	}
}
