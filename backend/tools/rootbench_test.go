package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/projectroot"
)

// This file is built both at HEAD and at the commit before os.Root
// (.ci/bench-root.sh copies it there), so it uses only the API both have.

// rootBenchProject writes 1,500 source files of 8 KB in 3 levels of
// folders, and returns a registry over it.
func rootBenchProject(b *testing.B) *Registry {
	b.Helper()
	dir := b.TempDir()
	line := "func example(x int) int { return x * 2 } // some ordinary source text\n"
	body := strings.Repeat(line, 8<<10/len(line))
	for i := range 1500 {
		p := filepath.Join(dir, fmt.Sprintf("pkg%02d/sub%d/deep/file%04d.go", i%15, i%4, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		text := body
		if i%100 == 7 {
			text += "// NEEDLE here\n"
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	root, err := projectroot.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	return New(Deps{Root: root, Env: []string{"PATH=/usr/bin:/bin"}})
}

func benchCall(b *testing.B, reg *Registry, name string, input any) {
	raw, _ := json.Marshal(input)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := reg.Execute(ctx, name, raw)
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %s", name, err, res.Output)
		}
	}
}

// BenchmarkRootReadFile reads one 8 KB file three folders deep.
func BenchmarkRootReadFile(b *testing.B) {
	reg := rootBenchProject(b)
	benchCall(b, reg, "read_file", ReadFileParams{Path: "pkg07/sub3/deep/file0007.go"})
}

// BenchmarkRootGrep searches the 1,500 files (12 MB) for a rare word.
func BenchmarkRootGrep(b *testing.B) {
	reg := rootBenchProject(b)
	benchCall(b, reg, "grep", GrepParams{Pattern: "NEEDLE"})
}
