package config

import (
	"reflect"
	"strings"
	"testing"

	"pilot/backend/lsp"
)

func TestCleanLanguageServers(t *testing.T) {
	t.Parallel()
	zls := lsp.ServerConfig{Name: "zls", Command: []string{"zls"}, Patterns: []string{"**/*.zig"}}
	for _, c := range []struct {
		name string
		in   []lsp.ServerConfig
		want []lsp.ServerConfig
		err  string
	}{
		{"kept as given", []lsp.ServerConfig{zls}, []lsp.ServerConfig{zls}, ""},
		{"blanks trimmed, empty rows dropped", []lsp.ServerConfig{
			{Name: " zls ", Command: []string{" zls", ""}, Patterns: []string{"**/*.zig ", " "}},
			{Command: []string{" "}},
		}, []lsp.ServerConfig{zls}, ""},
		{"no name", []lsp.ServerConfig{{Command: []string{"zls"}, Patterns: []string{"*.zig"}}}, nil, "has no name"},
		{"same name twice", []lsp.ServerConfig{zls, zls}, nil, `two language servers are named "zls"`},
		{"no command", []lsp.ServerConfig{{Name: "zls", Patterns: []string{"*.zig"}}}, nil, "has no command"},
		{"no pattern", []lsp.ServerConfig{{Name: "zls", Command: []string{"zls"}}}, nil, "serves no files"},
		{"bad pattern", []lsp.ServerConfig{{Name: "zls", Command: []string{"zls"}, Patterns: []string{"[*.zig"}}}, nil, "is not a valid glob"},
		{"control character", []lsp.ServerConfig{{Name: "zls", Command: []string{"zls\n--x"}, Patterns: []string{"*.zig"}}}, nil, "control character"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := CleanLanguageServers(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
	many := make([]lsp.ServerConfig, MaxLanguageServers+1)
	for i := range many {
		many[i] = lsp.ServerConfig{Name: strings.Repeat("x", i+1), Command: []string{"x"}, Patterns: []string{"*.x"}}
	}
	if _, err := CleanLanguageServers(many); err == nil {
		t.Error("more servers than the cap were kept")
	}
}
