package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/projectroot"
	"pilot/backend/skills"
)

// fixture is a registry over a temporary project.
type fixture struct {
	t   *testing.T
	dir string
	reg *Registry
}

func newFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		writeTestFile(t, filepath.Join(dir, name), content)
	}
	root, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() }) // Windows deletes no folder held open
	// One skill installed and a search service set up, so the registry
	// offers every tool (skill only while there is one, web_search only
	// while there is a service).
	set := skills.Set{Skills: []skills.Skill{{Name: "fixture", Description: "A skill of the test fixture.", Dir: t.TempDir(), Body: "Do it."}}}
	return &fixture{t: t, dir: root.Dir(), reg: New(Deps{Root: root, Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=/tmp"}, Skills: func() skills.Set { return set }, WebSearch: func() bool { return true }})}
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// call executes a tool with input given as a Go value.
func (f *fixture) call(name string, input any) Result {
	f.t.Helper()
	raw, err := json.Marshal(input)
	if err != nil {
		f.t.Fatal(err)
	}
	res, err := f.reg.Execute(context.Background(), name, raw)
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// apply applies a proposal without user changes.
func (f *fixture) apply(res Result) Result {
	f.t.Helper()
	if res.Proposal == nil {
		f.t.Fatalf("no proposal: %s", res.Output)
	}
	out, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fixture) read(name string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

// expect checks a result's error flag and that its output holds every want.
func expect(t *testing.T, res Result, isErr bool, want ...string) {
	t.Helper()
	if res.IsError != isErr {
		t.Errorf("IsError = %v, want %v; output:\n%s", res.IsError, isErr, res.Output)
	}
	for _, w := range want {
		if !strings.Contains(res.Output, w) {
			t.Errorf("output lacks %q:\n%s", w, res.Output)
		}
	}
}
