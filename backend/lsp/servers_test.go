package lsp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestLanguageOf(t *testing.T) {
	t.Parallel()
	byName := map[string]ServerConfig{}
	for _, c := range builtins {
		byName[c.Name] = c
	}
	for _, c := range []struct{ server, file, want string }{
		{"gopls", "a/b.go", "Go"},
		{"gopls", "go.mod", "Go"},
		{"typescript-language-server", "x.tsx", "TypeScript"},
		{"typescript-language-server", "x.mjs", "JavaScript"},
		{"clangd", "x.c", "C"},
		{"clangd", "x.hpp", "C++"},
		{"pyright", "x.py", "Python"},
	} {
		cfg := byName[c.server]
		if got := cfg.languageOf(c.file); got != c.want || !cfg.serves(c.file) {
			t.Errorf("%s %s: language %q (serves %v), want %q", c.server, c.file, got, cfg.serves(c.file), c.want)
		}
	}
}

func TestReadSourceTakesRegularFilesUpToTheCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, map[string]string{"ok.go": "package m\n", "big.js": strings.Repeat("x", maxSource+1)})
	if b, err := readSource(filepath.Join(dir, "ok.go")); err != nil || string(b) != "package m\n" {
		t.Fatalf("ok.go: %q, %v", b, err)
	}
	if _, err := readSource(filepath.Join(dir, "big.js")); !errors.Is(err, errNotSource) {
		t.Fatalf("a file over the cap: want errNotSource, got %v", err)
	}
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSource(fifo); !errors.Is(err, errNotSource) { // and it did not block
		t.Fatalf("a FIFO: want errNotSource, got %v", err)
	}
	if _, err := readSource(filepath.Join(dir, "gone.go")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: want ErrNotExist, got %v", err)
	}
}
