//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"pilot/backend/projectroot"
	"pilot/backend/projectroot/escapetest"
)

// corpusCalls are the calls every corpus path is tried with, through every
// file tool: the reads, then the writes (applied as if approved).
func corpusCalls(p string) []struct {
	tool  string
	input any
} {
	type call = struct {
		tool  string
		input any
	}
	return []call{
		{"read_file", ReadFileParams{Path: p}},
		{"list_files", ListFilesParams{Path: p}},
		{"glob", GlobParams{Pattern: "**", Path: p}},
		{"glob", GlobParams{Pattern: p + "/*"}},
		{"grep", GrepParams{Pattern: "CANARY|canary|root:x", Path: p}},
		{"write_file", WriteFileParams{Path: p, Content: "PWNED\n"}},
		{"patch_file", PatchFileParams{Path: p, OldText: "line two of the canary", NewText: "PWNED"}},
		{"multi_patch", MultiPatchParams{Edits: []PatchEdit{
			{Path: "a/b/c.txt", OldText: "inside c", NewText: "inside c"},
			{Path: p, OldText: "line two of the canary", NewText: "PWNED"},
		}}},
	}
}

// tryPath runs every file tool on p, applying any proposal, and returns
// what leaked: tool results or proposals holding the canary.
func tryPath(ctx context.Context, reg *Registry, l *escapetest.Layout, p string) []string {
	var leaks []string
	for _, c := range corpusCalls(p) {
		raw, _ := json.Marshal(c.input)
		res, err := reg.Execute(ctx, c.tool, raw)
		seen := res.Output
		if err != nil {
			seen += err.Error()
		}
		for _, im := range res.Images {
			seen += string(im.Data)
		}
		if res.Proposal != nil {
			for _, f := range res.Proposal.Files {
				seen += f.OldContent + f.NewContent
			}
			out, err := reg.Apply(ctx, res.Proposal, ApplyOptions{})
			seen += out.Output
			if err != nil {
				seen += err.Error()
			}
		}
		if l.Leaks(seen) {
			leaks = append(leaks, fmt.Sprintf("%s %q: %.200s", c.tool, p, seen))
		}
	}
	return leaks
}

func corpusRegistry(t *testing.T, l *escapetest.Layout) *Registry {
	t.Helper()
	root, err := projectroot.New(l.Proj)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return New(Deps{Root: root, Env: []string{"PATH=/usr/bin:/bin"}})
}

// TestEscapeCorpus runs every path of the escape corpus through every file
// tool: no outside byte may come back and nothing outside the project (or
// in .git) may change.
func TestEscapeCorpus(t *testing.T) {
	t.Parallel()
	l, err := escapetest.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := corpusRegistry(t, l)
	paths := l.Paths()
	if len(paths) < 400 {
		t.Fatalf("the corpus has %d paths, want at least 400", len(paths))
	}
	before, err := l.Snap()
	if err != nil {
		t.Fatal(err)
	}
	git := l.GitSnap()
	ctx := context.Background()
	escaped := map[string][]string{}
	for i, p := range paths {
		if i == len(paths)/2 {
			// Plant during the session: the dangling link's target appears,
			// and a new link to the outside folder.
			if err := os.WriteFile(filepath.Join(l.Outside, escapetest.Later), []byte(l.Token+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(l.Outside, filepath.Join(l.Proj, "planted")); err != nil {
				t.Fatal(err)
			}
			before, _ = l.Snap()
		}
		if leaks := tryPath(ctx, reg, l, p); len(leaks) > 0 {
			escaped[p] = leaks
		}
		now, err := l.Snap()
		if err != nil {
			t.Fatal(err)
		}
		if d := before.Diff(now); len(d) > 0 {
			escaped[p] = append(escaped[p], d...)
			before = now
		}
		if g := l.GitSnap(); g != git {
			escaped[p] = append(escaped[p], ".git changed")
			git = g
		}
	}
	for _, p := range []string{"planted/" + escapetest.Secret, "nope/../planted/" + escapetest.Secret, "dangling", "nope/../dangling"} {
		if leaks := tryPath(ctx, reg, l, p); len(leaks) > 0 {
			escaped[p] = leaks
		}
	}
	if len(escaped) > 0 {
		n := 0
		for p, why := range escaped {
			if n++; n <= 20 {
				t.Errorf("%q escaped: %s", p, strings.Join(why, "; "))
			}
		}
		t.Errorf("%d of %d corpus paths escaped (through %d tool calls each)", len(escaped), len(paths)+4, len(corpusCalls("")))
	}
	t.Logf("%d corpus paths, %d tool calls each", len(paths)+4, len(corpusCalls("")))
}

// TestEscapeRace swaps a project folder and a link to the outside folder
// (renameat2 RENAME_EXCHANGE, atomic) over and over while the file tools
// use paths through it: no outside byte may ever come back, nothing
// outside may change. It checks results, not timing.
func TestEscapeRace(t *testing.T) {
	t.Parallel()
	l, err := escapetest.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := corpusRegistry(t, l)
	if err := os.Symlink(l.Outside, filepath.Join(l.Proj, "swap.x")); err != nil {
		t.Fatal(err)
	}
	before, err := l.Snap()
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		a, b := filepath.Join(l.Proj, "swap.d"), filepath.Join(l.Proj, "swap.x")
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("exchange %s: %v (%d swaps)", a, err, swaps.Load())
				return
			}
			swaps.Add(1)
		}
	})
	ctx := context.Background()
	var leaks []string
	paths := []string{"swap.d/" + escapetest.Secret, "swap.d", "swap.d/" + escapetest.Secret2, "swap.d/sub", "nope/../swap.d/" + escapetest.Secret, "swap.d/" + escapetest.NewFile}
	for i := 0; i < 60 || swaps.Load() < 100; i++ {
		if i > 5000 {
			break
		}
		leaks = append(leaks, tryPath(ctx, reg, l, paths[i%len(paths)])...)
	}
	stop.Store(true)
	wg.Wait()
	// Put the real folder back in place before looking.
	if fi, err := os.Lstat(filepath.Join(l.Proj, "swap.d")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		_ = unix.Renameat2(unix.AT_FDCWD, filepath.Join(l.Proj, "swap.d"), unix.AT_FDCWD, filepath.Join(l.Proj, "swap.x"), unix.RENAME_EXCHANGE)
	}
	now, err := l.Snap()
	if err != nil {
		t.Fatal(err)
	}
	if d := before.Diff(now); len(d) > 0 {
		t.Errorf("outside changed during the race: %v", d)
	}
	if len(leaks) > 0 {
		t.Errorf("%d leaks during the race (%d swaps), first: %s", len(leaks), swaps.Load(), leaks[0])
	}
	t.Logf("%d swaps", swaps.Load())
}

// TestRefusalMessages: a refused path is explained to the model as
// before: which link led where, or that the path itself is outside, with
// what to do instead.
func TestRefusalMessages(t *testing.T) {
	t.Parallel()
	l, err := escapetest.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := corpusRegistry(t, l)
	ctx := context.Background()
	tests := []struct {
		tool  string
		input any
		want  []string
	}{
		{"read_file", ReadFileParams{Path: "nope/../dirlink/SECRET"}, []string{`goes through the symbolic link "dirlink"`, l.Outside, "outside the project root " + l.Proj, "list_files"}},
		{"read_file", ReadFileParams{Path: "a/b/out/SECRET"}, []string{`goes through the symbolic link "a/b/out"`, l.Outside}},
		{"read_file", ReadFileParams{Path: "../outside/SECRET"}, []string{`The path "../outside/SECRET" is outside the project root`}},
		{"list_files", ListFilesParams{Path: "rellink"}, []string{`goes through the symbolic link "rellink"`}},
		{"grep", GrepParams{Pattern: "x", Path: "chain1"}, []string{`goes through the symbolic link "chain1"`}},
		{"write_file", WriteFileParams{Path: "dirlink/NEWFILE", Content: "x"}, []string{`goes through the symbolic link "dirlink"`}},
		{"write_file", WriteFileParams{Path: "gitlink/config", Content: "x"}, []string{"inside .git/", "run_bash with git commands"}},
		{"read_file", ReadFileParams{Path: "loop1"}, []string{"too many symbolic links"}},
		{"read_file", ReadFileParams{Path: "README.md/x"}, []string{"a folder on its way is a file"}},
	}
	for _, tt := range tests {
		raw, _ := json.Marshal(tt.input)
		res, err := reg.Execute(ctx, tt.tool, raw)
		if err != nil || !res.IsError {
			t.Errorf("%s %s: %+v, %v", tt.tool, raw, res, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(res.Output, w) {
				t.Errorf("%s %s: %q lacks %q", tt.tool, raw, res.Output, w)
			}
		}
	}
}
