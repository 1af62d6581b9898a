package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRenamedPayloadFieldFailsTsc is the contract's point: renaming a
// payload's JSON field in Go and regenerating makes the window's type check
// fail where the field is read, instead of the window silently dropping
// the value. On a scratch copy of the repository's tracked frontend and
// backend/wire files (node_modules linked), the unmodified copy must pass
// `tsc --noEmit`, and the copy with the tool output payload's toolCallId
// renamed must fail naming the use site.
func TestRenamedPayloadFieldFailsTsc(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs tsc twice (about a minute); skipped with -short")
	}
	root, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(root, "frontend", "node_modules")
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not on PATH: install Node.js (make deps) to run the rename test")
	}
	if _, err := os.Stat(filepath.Join(modules, ".bin", "tsc")); err != nil {
		t.Skip("frontend/node_modules has no tsc: run 'make node-modules' to run the rename test")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: the rename test copies the tracked files")
	}

	scratch := t.TempDir()
	ls := exec.Command("git", "ls-files", "-z", "--", "frontend", "backend/wire")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout?)", err)
	}
	copyFiles(t, root, scratch, strings.Split(strings.TrimRight(string(out), "\x00"), "\x00"))
	// The work tree's own wire.gen.ts and Go files, tracked or new, so the
	// test checks what is there now.
	for _, dir := range []string{"backend/wire", "frontend/src/lib"} {
		names, _ := filepath.Glob(filepath.Join(root, dir, "*"))
		for _, n := range names {
			if fi, err := os.Stat(n); err != nil || fi.IsDir() {
				continue
			}
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(scratch, dir, filepath.Base(n)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(modules, filepath.Join(scratch, "frontend", "node_modules")); err != nil {
		t.Fatal(err)
	}

	regen := func() {
		t.Helper()
		p, err := load(filepath.Join(scratch, "backend/wire"))
		if err != nil {
			t.Fatal(err)
		}
		src, err := render(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(scratch, "frontend/src/lib/wire.gen.ts"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tsc := func() (string, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npx", "--no-install", "tsc", "--noEmit", "--pretty", "false")
		cmd.Dir = filepath.Join(scratch, "frontend")
		b, err := cmd.CombinedOutput()
		return string(b), err
	}

	regen()
	if out, err := tsc(); err != nil {
		t.Fatalf("tsc fails on the unmodified copy, so the rename test proves nothing: %v\n%s", err, out)
	}

	events := filepath.Join(scratch, "backend/wire/events.go")
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile("(type ToolOutputPayload struct {[^}]*ToolCallID +string +`json:\")toolCallId(\"`)")
	if !field.Match(b) {
		t.Fatal("backend/wire/events.go has no ToolOutputPayload with a toolCallId field: update this test to the payload's new shape")
	}
	if err := os.WriteFile(events, field.ReplaceAll(b, []byte("${1}toolCallID${2}")), 0o644); err != nil {
		t.Fatal(err)
	}
	regen()
	out2, err := tsc()
	if err == nil {
		t.Fatalf("tsc passes after ToolOutputPayload's toolCallId was renamed toolCallID in Go: the window would drop live command output silently\n%s", out2)
	}
	// The error must be at a use site in the window's code, not in the
	// generated file: e.g. src/state/sessionState.ts(199,40): error
	// TS2551: Property 'toolCallId' does not exist on type 'ToolOutputPayload'.
	use := regexp.MustCompile(`(?m)^src/(\S+\.tsx?)\(\d+,\d+\): error TS\d+: Property 'toolCallId' does not exist on type 'ToolOutputPayload'`)
	m := use.FindStringSubmatch(out2)
	if m == nil || strings.HasSuffix(m[1], "wire.gen.ts") {
		t.Fatalf("tsc failed, but not at a use of the renamed field:\n%s", out2)
	}
	t.Logf("tsc names the use site: %s", use.FindString(out2))
}
