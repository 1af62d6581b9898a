package docstest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"testing"
)

// TestReadersFindWhatTheCodeUses runs the readers of code_test.go on a
// made-up file that uses each way of naming a flag or a variable, so that
// a reader that stops finding one fails here, not silently in the
// comparison with docs/CLI.md.
func TestReadersFindWhatTheCodeUses(t *testing.T) {
	t.Parallel()
	const src = `package cli

var windowFlags = map[string]bool{"assetdir": true}

const thinkingEnv = "PILOT_THINKING_BUDGET"

var presets = []preset{{KeyEnv: "XAI_API_KEY", Model: "NOT_AN_ENV"}}

func Run(args []string, getenv func(string) string) {
	switch args[0] {
	case "repl", "--version":
	}
	if args[0] == "--json" || args[0] == "-p=" {
	}
	fs := flag.NewFlagSet("rewind", flag.ContinueOnError)
	fs.String("to", "", "")
	fs.BoolVar(&force, "force", false, "")
	for _, arg := range args[1:] {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		switch name {
		case "project", "h":
		}
	}
	_ = getenv("PILOT_HOME")
	_ = os.LookupEnv("PILOT_PROJECT")
	_ = pick(env, "PILOT_MODEL", "x")
	_ = fmt.Sprint("NOT_READ")
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "cli.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := []*ast.File{f}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"flags", slices.Sorted(maps.Keys(codeFlags(files))), []string{"--force", "--json", "--project", "--to", "--version", "-assetdir", "-h", "-p"}},
		{"commands", slices.Sorted(maps.Keys(commandWords(files))), []string{"repl"}},
		{"variables", slices.Sorted(maps.Keys(codeEnv(files))), []string{"PILOT_HOME", "PILOT_MODEL", "PILOT_PROJECT", "PILOT_THINKING_BUDGET", "XAI_API_KEY"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: read %q, want %q", c.what, c.got, c.want)
		}
	}
	doc := map[string]bool{"--json": true, "--gone": true}
	code := map[string]bool{"--json": true, "--new": true}
	var failures []string
	compareWith(func(format string, args ...any) { failures = append(failures, format) }, "the flag", doc, code)
	if len(failures) != 2 {
		t.Errorf("comparing a doc that lacks one flag and has one too many reported %d problems, want 2", len(failures))
	}
}
