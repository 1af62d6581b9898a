package tools

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

// TestNonRegularFiles: read_file, patch_file and write_file refuse a FIFO
// and a socket with a sentence, grep and glob pass them by, and nothing
// waits. On the old code read_file on the FIFO never returned.
func TestNonRegularFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "a.txt"), "needle\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "pipelink")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	root, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	reg := New(Deps{Root: root, Env: []string{"PATH=/usr/bin:/bin"}})
	for _, p := range []string{"pipe", "pipelink", "sock"} {
		res := callBounded(t, reg, "read_file", ReadFileParams{Path: p})
		if !res.IsError || !strings.Contains(res.Output, "not a regular file") {
			t.Errorf("read_file %s: %+v", p, res)
		}
		res = callBounded(t, reg, "patch_file", PatchFileParams{Path: p, OldText: "x", NewText: "y"})
		if !res.IsError || !strings.Contains(res.Output, "not a regular file") {
			t.Errorf("patch_file %s: %+v", p, res)
		}
	}
	res := callBounded(t, reg, "read_file", ReadFileParams{Path: "pipe"})
	if !strings.Contains(res.Output, "named pipe (FIFO)") {
		t.Errorf("read_file pipe does not say what it is: %s", res.Output)
	}
	res = callBounded(t, reg, "grep", GrepParams{Pattern: "needle"})
	if res.IsError || !strings.Contains(res.Output, "a.txt:1: needle") {
		t.Errorf("grep: %+v", res)
	}
	res = callBounded(t, reg, "glob", GlobParams{Pattern: "*"})
	if res.IsError || !strings.Contains(res.Output, "a.txt") || strings.Contains(res.Output, "pipe") {
		t.Errorf("glob: %+v", res)
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
