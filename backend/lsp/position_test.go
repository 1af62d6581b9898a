package lsp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestColumn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line       string
		utf16, col int
	}{
		{"abc", 0, 1},
		{"abc", 2, 3},
		{"abc", 3, 4},
		{"abc", 9, 4},     // past the end
		{"héllo x", 6, 7}, // é is one code unit
		{"😀x", 2, 2},      // 😀 is two code units
		{"😀x", 1, 1},      // inside the pair: the emoji's column
		{"a😀😀b", 5, 4},    // b
		{"\xffz", 1, 2},   // a byte that is not UTF-8 is one character
		{"日本語 y", 4, 5},   // y
		{"", 0, 1},
	} {
		if got := column(c.line, c.utf16); got != c.col {
			t.Errorf("column(%q, %d) = %d, want %d", c.line, c.utf16, got, c.col)
		}
	}
}

func TestLineOf(t *testing.T) {
	t.Parallel()
	text := "one\r\ntwo\nthree"
	for n, want := range []string{"one", "two", "three"} {
		if got, ok := lineOf(text, n); !ok || got != want {
			t.Errorf("lineOf(%d) = %q, %v; want %q", n, got, ok, want)
		}
	}
	if _, ok := lineOf(text, 3); ok {
		t.Error("lineOf past the last line is not ok")
	}
}

// FuzzColumn: the UTF-16 offset at which the i-th character starts maps
// to column i+1, and columns never go back as the offset grows.
func FuzzColumn(f *testing.F) {
	for _, s := range []string{"abc", "héllo", "a😀b", "日本語", "\xff\xfe", ""} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, line string, off int) {
		if off < 0 || off > 1<<16 {
			return
		}
		units, i := 0, 0
		for rest := line; len(rest) > 0; i++ {
			if got := column(line, units); got != i+1 {
				t.Fatalf("column(%q, %d) = %d, want %d (character %d starts there)", line, units, got, i+1, i)
			}
			r, size := utf8.DecodeRuneInString(rest)
			rest = rest[size:]
			units += utf16Len(r)
		}
		if got := column(line, units); got != i+1 {
			t.Fatalf("column(%q, end %d) = %d, want %d", line, units, got, i+1)
		}
		a, b := column(line, off), column(line, off+1)
		if a > b || a < 1 || b > i+1 {
			t.Fatalf("column(%q, %d) = %d, column(.., %d) = %d: out of order or range", line, off, a, off+1, b)
		}
	})
}

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
