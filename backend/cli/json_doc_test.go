package cli

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/wire"
)

// jsonDocPath is the documentation of the --json output, made by
// TestCLIJSONDoc from the types below and their comments in backend/wire.
const jsonDocPath = "../../docs/cli-json.md"

// jsonLineDocs is each line of `pilot -p --json` and `pilot repl
// --json`: its "type", when it is printed, and its wire type.
var jsonLineDocs = []struct {
	kind, when string
	typ        reflect.Type
}{
	{"text", "a piece of the answer as it streams", reflect.TypeFor[wire.TextLine]()},
	{"tool_call", "a tool call, once, as the model asks for it", reflect.TypeFor[wire.ToolCallLine]()},
	{"approval", "a question the run answered", reflect.TypeFor[wire.ApprovalLine]()},
	{"tool_result", "how a tool call ended", reflect.TypeFor[wire.ToolResultLine]()},
	{"todos", "the whole task list after it changed", reflect.TypeFor[wire.TodosLine]()},
	{"usage", "after each model call", reflect.TypeFor[wire.UsageLine]()},
	{"notice", "something the agent did on its own", reflect.TypeFor[wire.NoticeLine]()},
	{"error", "why the turn failed", reflect.TypeFor[wire.ErrorLine]()},
	{"done", "the end of a turn, always its last line", reflect.TypeFor[wire.DoneLine]()},
}

// jsonCommandDocs is each subcommand's --json output and the wire type
// it prints, in the order of docs/cli-json.md.
var jsonCommandDocs = []struct {
	command, what string
	typ           reflect.Type
}{
	{"pilot sessions list --json", "a line per session, newest first (none for a folder never opened)", reflect.TypeFor[wire.SessionRecord]()},
	{"pilot sessions search QUERY --json", "a line per hit, best first (at most 50)", reflect.TypeFor[wire.SearchRecord]()},
	{"pilot sessions show ID --json", "one object", reflect.TypeFor[wire.Transcript]()},
	{"pilot sessions import FILE --json", "one object, the new session", reflect.TypeFor[wire.SessionRecord]()},
	{"pilot sessions changes ID --json", "one object", reflect.TypeFor[wire.Ledger]()},
	{"pilot rewind SESSION --to MESSAGE_ID --json", "one object, also when files were in conflict", reflect.TypeFor[wire.RestoreResult]()},
	{"pilot rules list|add|remove --json", "a line per rule (list), or the rule added or removed", reflect.TypeFor[wire.RuleLine]()},
	{"pilot worktree list --json", "a line per worktree session of the project, most recently used first", reflect.TypeFor[wire.WorktreeLine]()},
	{"pilot worktree merge SESSION --json", "one object, also when files were in conflict", reflect.TypeFor[wire.WorktreeMerge]()},
	{"pilot mcp list --json", "a line per configured server, once none is still starting", reflect.TypeFor[wire.MCPStatus]()},
	{"pilot mcp get NAME --json", "one object", reflect.TypeFor[wire.MCPStatus]()},
	{"pilot doctor --json", "one object", reflect.TypeFor[wire.DoctorReport]()},
	{"pilot setup --json", "one object", reflect.TypeFor[wire.Setup]()},
	{"pilot models --json", "one object", reflect.TypeFor[wire.ModelList]()},
}

// TestCLIJSONDoc: docs/cli-json.md is what the wire types and their
// comments say, so it cannot drift from the output. Write it again with
// PILOT_WRITE_DOCS=1 go test ./backend/cli -run TestCLIJSONDoc.
func TestCLIJSONDoc(t *testing.T) {
	t.Parallel()
	got := cliJSONDoc(t)
	if os.Getenv("PILOT_WRITE_DOCS") == "1" {
		if err := os.WriteFile(jsonDocPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(jsonDocPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s is not what backend/wire says; run PILOT_WRITE_DOCS=1 go test ./backend/cli -run TestCLIJSONDoc and commit it. It should be:\n%s", jsonDocPath, got)
	}
}

// cliJSONDoc renders the tables of jsonLineDocs and jsonCommandDocs,
// then every object they hold, from the types' JSON tags and the comments in backend/wire.
func cliJSONDoc(t *testing.T) string {
	docs := wireDocs(t)
	wireEnums = map[string][]string{}
	for name, d := range docs {
		wireEnums[name] = d.values
	}
	var b strings.Builder
	b.WriteString(`# The --json output

<!-- Made by TestCLIJSONDoc (backend/cli/json_doc_test.go) from the types
in backend/wire/cli.go and their comments: edit those, then run
PILOT_WRITE_DOCS=1 go test ./backend/cli -run TestCLIJSONDoc. -->

Every command with ` + "`--json`" + ` prints JSON objects on stdout, one per line
(the lines of ` + "`pilot -p`" + ` and ` + "`pilot repl`" + ` are told apart by ` + "`type`" + `), and
nothing else there; messages go to stderr as sentences. The output is
stable: fields, line types and values may be added, none is renamed,
retyped or removed, so a reader should ignore what it does not know. A
field is always present unless it is marked *optional* (absent when
empty). A ` + "`string (time)`" + ` is an RFC 3339 time.

Errors before a turn starts (a usage error, stdin refused, no API key)
are one ` + "`pilot: ...`" + ` line on stderr, not JSON.

`)
	var objects []reflect.Type
	seen := map[reflect.Type]bool{}
	var collect func(reflect.Type)
	collect = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != reflect.TypeFor[wire.TextLine]().PkgPath() || seen[typ] {
			return
		}
		seen[typ] = true
		objects = append(objects, typ)
		for f := range typ.Fields() {
			collect(f.Type)
		}
	}
	b.WriteString("## `pilot -p --json`, `pilot repl --json`\n\nA line per event of the turn, told apart by `type`:\n\n| `type` | when | object |\n|---|---|---|\n")
	for _, l := range jsonLineDocs {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", l.kind, l.when, jsonKind(l.typ))
		collect(l.typ)
	}
	b.WriteString("\n## The subcommands\n\n| command | prints | object |\n|---|---|---|\n")
	for _, c := range jsonCommandDocs {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", strings.ReplaceAll(c.command, "|", `\|`), c.what, jsonKind(c.typ))
		collect(c.typ)
	}
	b.WriteString("\n`pilot sessions export ID --format json` prints the session's export\n" +
		"document (what `pilot sessions import` reads), indented, not a line.\n\n")
	b.WriteString("## Objects\n\n")
	slices.SortStableFunc(objects, func(a, b reflect.Type) int { return strings.Compare(a.Name(), b.Name()) })
	for _, typ := range objects {
		d, ok := docs[typ.Name()]
		if !ok || d.doc == "" {
			t.Errorf("wire.%s has no doc comment", typ.Name())
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n\n| field | JSON | |\n|---|---|---|\n", typ.Name(), oneLine(d.doc))
		for f := range typ.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			note := d.fields[f.Name]
			if strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
				note = strings.TrimSpace("*optional* " + note)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, jsonKind(f.Type), strings.ReplaceAll(note, "|", `\|`))
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// jsonKind names the JSON a Go type encodes to; a named string type of
// backend/wire lists its values.
func jsonKind(typ reflect.Type) string {
	if typ.Kind() == reflect.String && typ.PkgPath() == reflect.TypeFor[wire.TextLine]().PkgPath() {
		if vs := wireEnums[typ.Name()]; len(vs) > 0 {
			return "string: `" + strings.Join(vs, "`, `") + "`"
		}
	}
	switch {
	case typ == reflect.TypeFor[json.RawMessage]():
		return "any JSON"
	case typ == reflect.TypeFor[time.Time]():
		return "string (time)"
	}
	switch typ.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return jsonKind(typ.Elem())
	case reflect.Slice:
		return "array of " + jsonKind(typ.Elem())
	case reflect.Map:
		return "object of " + jsonKind(typ.Elem())
	case reflect.Struct:
		return fmt.Sprintf("[%s](#%s)", typ.Name(), strings.ToLower(typ.Name()))
	}
	return typ.String()
}

// typeDoc is a wire type's doc comment and its fields' comments.
type typeDoc struct {
	doc    string
	fields map[string]string
	values []string // a named string type's constants, in their order
}

// wireDocs reads the comments of backend/wire's types.
func wireDocs(t *testing.T) map[string]typeDoc {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("../wire/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}
	pkg, err := doc.NewFromFiles(fset, parsed, "pilot/backend/wire")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]typeDoc{}
	for _, ty := range pkg.Types {
		d := typeDoc{doc: ty.Doc, fields: map[string]string{}}
		for _, spec := range ty.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, f := range st.Fields.List {
				text := strings.TrimSpace(f.Doc.Text() + " " + f.Comment.Text())
				for _, n := range f.Names {
					d.fields[n.Name] = oneLine(text)
				}
			}
		}
		for _, c := range ty.Consts {
			for _, spec := range c.Decl.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if u, err := strconv.Unquote(lit.Value); err == nil && u != "" {
							d.values = append(d.values, u)
						}
					}
				}
			}
		}
		out[ty.Name] = d
	}
	return out
}

// wireEnums holds the values of backend/wire's named string types, read
// by cliJSONDoc before it writes a table.
var wireEnums map[string][]string

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
