package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repo is the repository's root, seen from this package.
const repo = "../../.."

// TestGeneratedFilesAreUpToDate fails when backend/wire or App's bound
// methods changed and frontend/src/lib/*.gen.ts were not regenerated
// (make bindings).
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	t.Parallel()
	if err := check(repo); err != nil {
		t.Fatal(err)
	}
}

// gen renders a package made of one Go file.
func gen(t *testing.T, src string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wire.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := load(dir)
	if err != nil {
		return "", err
	}
	out, err := render(p)
	return string(out), err
}

// TestRender: each Go shape becomes the TypeScript that encoding/json's
// output has.
func TestRender(t *testing.T) {
	t.Parallel()
	const src = `package wire

import (
	"encoding/json"
	"time"
)

// Kind is a closed set.
type Kind string

const (
	KindA Kind = "a"
	KindB Kind = "b-b"
)

// Seq is embedded.
type Seq struct {
	Seq int64 ` + "`json:\"seq\"`" + `
}

// Thing has one field of each shape.
type Thing struct {
	Seq
	Name     string            ` + "`json:\"name\"`" + `
	Kind     Kind              ` + "`json:\"kind\"`" + ` // the kind
	Opt      string            ` + "`json:\"opt,omitempty\"`" + `
	Ptr      *Seq              ` + "`json:\"ptr\"`" + `
	OptPtr   *bool             ` + "`json:\"optPtr,omitempty\"`" + `
	Bytes    []byte            ` + "`json:\"bytes\"`" + `
	When     time.Time         ` + "`json:\"when\"`" + `
	Raw      json.RawMessage   ` + "`json:\"raw\"`" + `
	Kinds    []Kind            ` + "`json:\"kinds\"`" + `
	ByName   map[string]Kind   ` + "`json:\"byName\"`" + `
	Override []string          ` + "`json:\"override\" ts_type:\"string[] | null\"`" + `
	Hidden   string            ` + "`json:\"-\"`" + `
	NoTag    float64
	private  int
}

const Ping = "thing:ping"

const Limit = 10

var Payloads = map[string]any{Ping: Thing{}}
`
	out, err := gen(t, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/** Kind is a closed set. */\nexport type Kind = \"a\" | \"b-b\";",
		"export const KindValues: readonly Kind[] = [\"a\", \"b-b\"];",
		"export interface Thing extends Seq {",
		"  name: string;",
		"  /** the kind */\n  kind: Kind;",
		"  opt?: string;",
		"  ptr: Seq | null;",
		"  optPtr?: boolean;",
		"  bytes: string;",
		"  when: string;",
		"  raw: unknown;",
		"  kinds: Kind[];",
		"  byName: Record<string, Kind>;",
		"  override: string[] | null;",
		"  NoTag: number;",
		"export const Limit = 10;",
		"export const Ping = \"thing:ping\";",
		"export interface EventMap {\n  \"thing:ping\": Thing;\n}",
		"export const EventNames: readonly EventName[] = [\n  Ping,\n];",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks\n%s\n--- output:\n%s", want, out)
		}
	}
	for _, not := range []string{"Hidden", "private", "Payloads ="} {
		if strings.Contains(out, not) {
			t.Errorf("the output has %s:\n%s", not, out)
		}
	}
}

// TestRenderRefuses: what the window could not be told truthfully stops
// the generator with a sentence that names it.
func TestRenderRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, src, want string }{
		{"an event with no payload", `package wire
const Ping = "thing:ping"
const Pong = "thing:pong"
type P struct{ A int ` + "`json:\"a\"`" + ` }
var Payloads = map[string]any{Ping: P{}}
`, "event Pong (\"thing:pong\") has no payload in wire.Payloads"},
		{"no Payloads", `package wire
type P struct{ A int ` + "`json:\"a\"`" + ` }
`, "no var Payloads"},
		{"a named type with no values", `package wire
type Mode string
var Payloads = map[string]any{}
`, "Mode is a named string with no constants"},
		{"a channel", `package wire
type P struct{ C chan int ` + "`json:\"c\"`" + ` }
var Payloads = map[string]any{}
`, "no TypeScript type for chan int"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := gen(t, c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one saying %q", err, c.want)
			}
		})
	}
}
