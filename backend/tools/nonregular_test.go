package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/projectroot"
)

// callBounded runs a tool call that must come back: a FIFO read used to
// wait forever, so the call runs in a goroutine and the test fails (rather
// than hangs) when it does not return within a generous bound.
func callBounded(t *testing.T, reg *Registry, name string, input any) Result {
	t.Helper()
	raw, _ := json.Marshal(input)
	type out struct {
		res Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := reg.Execute(context.Background(), name, raw)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatalf("%s %s: %v", name, raw, o.err)
		}
		return o.res
	case <-time.After(60 * time.Second):
		t.Fatalf("%s %s did not return: it waits on a file that is not a regular file", name, raw)
		return Result{}
	}
}

// TestWithheld: a project rule that denies a tool some paths keeps them
// out of read_file, list_files, glob and grep, and each says so.
func TestWithheld(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "secrets/key.txt"), "TOPSECRET\n")
	writeTestFile(t, filepath.Join(dir, "secrets/more.txt"), "TOPSECRET too\n")
	writeTestFile(t, filepath.Join(dir, "src/main.go"), "package main // TOPSECRET is a word here\n")
	if err := os.Symlink("secrets", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	root, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var (
		mu    sync.Mutex
		asked []string
	)
	reg := New(Deps{Root: root, Env: []string{"PATH=/usr/bin:/bin"}, Withheld: func(tool, rel string) bool {
		mu.Lock()
		asked = append(asked, tool)
		mu.Unlock()
		return strings.HasPrefix(rel, "secrets/")
	}})
	for _, p := range []string{"secrets/key.txt", "alias/key.txt", "src/../secrets/key.txt"} {
		res := callBounded(t, reg, "read_file", ReadFileParams{Path: p})
		if !res.IsError || strings.Contains(res.Output, "TOPSECRET") || !strings.Contains(res.Output, "a project rule denies read_file") {
			t.Errorf("read_file %s: %+v", p, res)
		}
	}
	res := callBounded(t, reg, "grep", GrepParams{Pattern: "TOPSECRET"})
	if strings.Contains(res.Output, "secrets/") || !strings.Contains(res.Output, "src/main.go") || !strings.HasSuffix(res.Output, "(2 entries withheld by project rules that deny this tool those paths.)") {
		t.Errorf("grep: %s", res.Output)
	}
	res = callBounded(t, reg, "glob", GlobParams{Pattern: "**/*.txt"})
	if strings.Contains(res.Output, "key.txt") || !strings.Contains(res.Output, "2 entries withheld") {
		t.Errorf("glob: %s", res.Output)
	}
	res = callBounded(t, reg, "list_files", ListFilesParams{Path: "secrets"})
	if strings.Contains(res.Output, "key.txt") || !strings.Contains(res.Output, "2 entries withheld") {
		t.Errorf("list_files: %s", res.Output)
	}
	for _, tool := range []string{"read_file", "grep", "glob", "list_files"} {
		if !strings.Contains(strings.Join(asked, " "), tool) {
			t.Errorf("Withheld never asked for %s", tool)
		}
	}
}
