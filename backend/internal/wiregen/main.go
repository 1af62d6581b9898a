// Command wiregen writes the window's side of the wire contract,
// frontend/src/lib/wire.gen.ts, from the Go package backend/wire: every
// struct as a TypeScript interface (JSON names, omitempty as optional),
// every named string type with constants as a string union and the list of
// its values, every event name, and the map from event name to payload
// type (wire.Payloads). `make bindings` runs it after `wails generate
// module`; `make bindings-check` fails when the file is stale.
//
// It reads the package with go/parser and go/types from the standard
// library: the wire package is small and imports only the standard
// library, so nothing more (go/packages, tygo) earns its place. tygo, the
// nearest tool, writes named string types as `string` and knows nothing of
// the event map.
//
//	go run ./backend/internal/wiregen [-dir backend/wire] [-o frontend/src/lib/wire.gen.ts]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	dir := flag.String("dir", "backend/wire", "the Go package to read")
	out := flag.String("o", "frontend/src/lib/wire.gen.ts", "the TypeScript file to write")
	flag.Parse()
	pkg, err := load(*dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wiregen: %v\n", err)
		os.Exit(1)
	}
	src, err := render(pkg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wiregen: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "wiregen: %v\n", err)
		os.Exit(1)
	}
}
