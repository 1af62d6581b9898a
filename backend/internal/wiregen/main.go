// Command wiregen writes the window's side of the contract with Go, from
// the Go itself, into frontend/src/lib:
//
//   - wire.gen.ts, from the package backend/wire: every struct as a
//     TypeScript interface (JSON names, omitempty as optional), every named
//     string type with constants as a string union and the list of its
//     values, every event name, and the map from event name to payload type
//     (wire.Payloads);
//   - backend.gen.ts, from the methods App binds (the exported methods of
//     *App in the main package, as Wails decides): the interface of the
//     window's calls into Go, which lib/backend.ts makes the Backend;
//   - wailsBound.gen.ts: those calls over the Wails bindings
//     (frontend/wailsjs), their results given the contract's types.
//
// `make bindings` runs it after `wails generate module`; `make
// bindings-check` runs it with -check, which fails naming the stale file.
//
// It reads the packages with go/parser and go/types from the standard
// library: backend/wire imports only the standard library, and App's
// methods are read from their syntax (their types are basic types and
// those of backend/wire), so nothing more (go/packages, tygo) earns its
// place. tygo, the nearest tool, writes named string types as `string` and
// knows nothing of the event map.
//
//	go run ./backend/internal/wiregen [-root .] [-check]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The generated files, relative to the repository's root.
const (
	wireTS    = "frontend/src/lib/wire.gen.ts"
	backendTS = "frontend/src/lib/backend.gen.ts"
	wailsTS   = "frontend/src/lib/wailsBound.gen.ts"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	checkOnly := flag.Bool("check", false, "write nothing; fail when a generated file differs from what the Go makes")
	flag.Parse()
	var err error
	if *checkOnly {
		err = check(*root)
	} else {
		err = write(*root)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "wiregen: %v\n", err)
		os.Exit(1)
	}
}

// generate renders every generated file of the repository at root, by
// path relative to it.
func generate(root string) (map[string][]byte, error) {
	wire, err := load(filepath.Join(root, "backend/wire"))
	if err != nil {
		return nil, err
	}
	wireSrc, err := render(wire)
	if err != nil {
		return nil, err
	}
	app, err := loadApp(root, wire)
	if err != nil {
		return nil, err
	}
	backendSrc, err := renderBackend(app)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{wireTS: wireSrc, backendTS: backendSrc, wailsTS: renderWails(app)}, nil
}

// write writes the generated files.
func write(root string) error {
	files, err := generate(root)
	if err != nil {
		return err
	}
	for rel, src := range files {
		if err := os.WriteFile(filepath.Join(root, rel), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// check fails when a generated file differs from what the Go makes now,
// naming the file and its first line that differs.
func check(root string) error {
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, rel := range []string{wireTS, backendTS, wailsTS} {
		got, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		if want := files[rel]; !bytes.Equal(got, want) {
			line, has, makes := firstDiff(string(got), string(want))
			return fmt.Errorf("%s is stale from line %d (has %q, the Go makes %q): run 'make bindings' and commit the result", rel, line, has, makes)
		}
	}
	return nil
}

// firstDiff is the first line (from 1) where got and want differ, and
// that line of each.
func firstDiff(got, want string) (int, string, string) {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	at := func(lines []string, i int) string {
		if i < len(lines) {
			return lines[i]
		}
		return "<end of file>"
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	return i + 1, at(g, i), at(w, i)
}
