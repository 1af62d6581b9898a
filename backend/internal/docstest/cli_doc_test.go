package docstest

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pilot/backend/projectroot"
	"pilot/backend/skills"
	"pilot/backend/tools"
)

// section returns the text of the doc under the "## " heading that starts
// with title, up to the next "## " heading.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+title)
	if !ok {
		t.Fatalf("docs/CLI.md has no section %q", "## "+title)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "CLI.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compare fails the test with each name one side has and the other lacks.
func compare(t *testing.T, what string, doc, code map[string]bool) {
	t.Helper()
	compareWith(t.Errorf, what, doc, code)
}

func compareWith(errorf func(string, ...any), what string, doc, code map[string]bool) {
	for _, n := range slices.Sorted(maps.Keys(code)) {
		if !doc[n] {
			errorf("%s %s is in the code but not in docs/CLI.md", what, n)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(doc)) {
		if !code[n] {
			errorf("%s %s is in docs/CLI.md but not in the code", what, n)
		}
	}
	if len(code) == 0 {
		errorf("found no %s in the code: the reader is broken", what)
	}
}

var (
	docFlag    = regexp.MustCompile("(?:^|[\\s\\[`|(,])(-[a-zA-Z][a-z0-9-]*|--[a-z][a-z0-9-]*)\\b")
	docCommand = regexp.MustCompile("`pilot ([a-z]+)(?: ([a-z|]+))?")
	docEnv     = regexp.MustCompile("`([A-Z][A-Z0-9_]*)`")
	docParam   = regexp.MustCompile("`([a-z_]+\\??)`")
)

// TestDocumentedCommandLine: the flags of docs/CLI.md's command line are
// the CLI's, its commands are cli.Run's, and every sub-command it names is
// a word of the CLI.
func TestDocumentedCommandLine(t *testing.T) {
	t.Parallel()
	text := section(t, readDoc(t), "Command line")
	cli := parseDir(t, filepath.Join(moduleRoot(t), "backend", "cli"), true, func(string) bool { return false })
	docFlags := map[string]bool{}
	for _, m := range docFlag.FindAllStringSubmatch(text, -1) {
		docFlags[m[1]] = true
	}
	// The window's own flags (Wails' dev and binding flags) are read where
	// the service tells a window's arguments from a command's (folder.go).
	folder := parseDir(t, filepath.Join(moduleRoot(t), "backend", "service"), false, func(string) bool { return false })
	compare(t, "the flag", docFlags, codeFlags(append(cli, folder...)))

	docWords, docSubs := map[string]bool{}, map[string]bool{}
	for _, m := range docCommand.FindAllStringSubmatch(text, -1) {
		docWords[m[1]] = true
		for _, s := range strings.Split(m[2], "|") {
			if s != "" {
				docSubs[m[1]+" "+s] = true
			}
		}
	}
	words := commandWords(cli)
	compare(t, "the command pilot", docWords, words)
	literals := stringsOf(cli)
	for _, s := range slices.Sorted(maps.Keys(docSubs)) {
		word, sub, _ := strings.Cut(s, " ")
		if words[word] && !literals[sub] {
			t.Errorf("docs/CLI.md names pilot %s, but %q is no word of backend/cli", s, sub)
		}
	}
}

// TestDocumentedEnvironment: the variables of docs/CLI.md's environment
// table are the ones the program reads (test helpers under
// backend/internal left out).
func TestDocumentedEnvironment(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	text := section(t, readDoc(t), "Environment")
	docVars := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range docEnv.FindAllStringSubmatch(first, -1) {
			docVars[m[1]] = true
		}
	}
	skip := func(p string) bool {
		rel, _ := filepath.Rel(root, p)
		return rel == "frontend" || rel == "build" || rel == filepath.Join("backend", "internal")
	}
	compare(t, "the variable", docVars, codeEnv(parseDir(t, root, true, skip)))
}

// TestDocumentedTools: the tools table of docs/CLI.md has every tool of the
// registry, in its order, with its parameters ("?" when optional).
func TestDocumentedTools(t *testing.T) {
	t.Parallel()
	text := section(t, readDoc(t), "Tools")
	type row struct {
		name   string
		params []string
	}
	var doc []row
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		r := row{name: strings.Trim(strings.TrimSpace(cells[1]), "`")}
		for _, m := range docParam.FindAllStringSubmatch(cells[2], -1) {
			r.params = append(r.params, m[1])
		}
		doc = append(doc, r)
	}
	root, err := projectroot.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var code []row
	// One skill installed and a search service set up, so that skill and
	// web_search are offered too.
	one := skills.Set{Skills: []skills.Skill{{Name: "one", Description: "A skill."}}}
	for _, d := range tools.New(tools.Deps{Root: root, Skills: func() skills.Set { return one }, WebSearch: func() bool { return true }}).Defs() {
		var s struct {
			Properties map[string]json.RawMessage
			Required   []string
		}
		if err := json.Unmarshal(d.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		r := row{name: d.Name}
		for name := range s.Properties {
			if !slices.Contains(s.Required, name) {
				name += "?"
			}
			r.params = append(r.params, name)
		}
		code = append(code, r)
	}
	if len(code) < 10 {
		t.Fatalf("the registry has %d tools; it has more", len(code))
	}
	for i := range max(len(doc), len(code)) {
		switch {
		case i >= len(doc):
			t.Errorf("the tool %s is in the registry but not in docs/CLI.md", code[i].name)
		case i >= len(code):
			t.Errorf("the tool %s is in docs/CLI.md but not in the registry", doc[i].name)
		case doc[i].name != code[i].name:
			t.Errorf("tool %d is %s in docs/CLI.md and %s in the registry", i+1, doc[i].name, code[i].name)
		default:
			d, c := slices.Sorted(slices.Values(doc[i].params)), slices.Sorted(slices.Values(code[i].params))
			if !slices.Equal(d, c) {
				t.Errorf("%s: docs/CLI.md gives the parameters %q, the registry %q", doc[i].name, d, c)
			}
		}
	}
}
