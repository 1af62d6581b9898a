package tools

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pilot/backend/projectroot"
)

// The tools the model sees, as README and the system prompt name them: names, parameters,
// optional ones marked with '?', in order.
var contract = []struct {
	name     string
	params   []string
	readOnly bool
}{
	{"list_files", []string{"path?"}, true},
	{"read_file", []string{"path", "start_line?", "end_line?"}, true},
	{"glob", []string{"pattern", "path?"}, true},
	{"grep", []string{"pattern", "path?", "file_pattern?"}, true},
	{"diagnostics", []string{"path?"}, true},
	{"write_file", []string{"path", "content"}, false},
	{"patch_file", []string{"path", "old_text", "new_text", "replace_all?"}, false},
	{"multi_patch", []string{"edits"}, false},
	{"run_bash", []string{"command", "timeout_seconds?", "sandbox?", "reason?", "background?"}, false},
	{"job_output", []string{"job_id", "wait_seconds?"}, true},
	{"job_stop", []string{"job_id"}, true},
	{"todo_write", []string{"todos"}, true},
	{"present_plan", []string{"plan", "steps"}, true},
	{"remember", []string{"text"}, false},
	{"task", []string{"description", "prompt", "subagent_type?"}, true},
	{"web_fetch", []string{"url", "prompt?"}, true},
	{"web_search", []string{"query", "max_results?", "allowed_domains?"}, true},
	{"skill", []string{"name"}, true},
}

func TestRegistryMatchesContract(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	defs := f.reg.Defs()
	if len(defs) != len(contract) {
		t.Fatalf("%d tools, want %d", len(defs), len(contract))
	}
	for i, c := range contract {
		d := defs[i]
		if d.Name != c.name {
			t.Fatalf("tool %d is %s, want %s", i, d.Name, c.name)
		}
		var s struct {
			Type       string
			Properties map[string]struct{ Type, Description string }
			Required   []string
		}
		if err := json.Unmarshal(d.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		for _, p := range c.params {
			name, optional := strings.CutSuffix(p, "?")
			prop, ok := s.Properties[name]
			if !ok || prop.Description == "" {
				t.Errorf("%s: parameter %s missing or undescribed", c.name, name)
			}
			if slices.Contains(s.Required, name) == optional {
				t.Errorf("%s: %s required = %v", c.name, name, !optional)
			}
		}
		if len(s.Properties) != len(c.params) {
			t.Errorf("%s: schema has %d properties, contract %d", c.name, len(s.Properties), len(c.params))
		}
		tool, _ := f.reg.Get(c.name)
		if tool.ReadOnly() != c.readOnly || len(d.Description) < 200 {
			t.Errorf("%s: read-only %v, description %d bytes", c.name, tool.ReadOnly(), len(d.Description))
		}
	}
}

// The schema is derived from the params struct: every field, its tag name,
// optional exactly when omitempty or a pointer.
func TestSchemaOfStruct(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[ListFilesParams](), reflect.TypeFor[ReadFileParams](), reflect.TypeFor[GlobParams](),
		reflect.TypeFor[GrepParams](), reflect.TypeFor[WriteFileParams](), reflect.TypeFor[PatchFileParams](),
		reflect.TypeFor[MultiPatchParams](), reflect.TypeFor[PatchEdit](), reflect.TypeFor[RunBashParams](),
	} {
		s := schemaOf(typ)
		if len(s.Properties.names) != typ.NumField() {
			t.Errorf("%s: %d properties for %d fields", typ, len(s.Properties.names), typ.NumField())
		}
		for i := range typ.NumField() {
			fld := typ.Field(i)
			name, opts, _ := strings.Cut(fld.Tag.Get("json"), ",")
			if s.Properties.names[i] != name {
				t.Errorf("%s: property %d is %s, field tag %s", typ, i, s.Properties.names[i], name)
			}
			if slices.Contains(s.Required, name) == strings.Contains(opts, "omitempty") {
				t.Errorf("%s.%s: required does not follow omitempty", typ, name)
			}
		}
	}
	edits := schemaOf(reflect.TypeFor[MultiPatchParams]()).Properties.get("edits")
	if edits.Type != "array" || edits.Items.Type != "object" || len(edits.Items.Required) != 3 {
		t.Errorf("edits schema: %+v", edits)
	}
}

func TestInputValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	for _, tc := range []struct {
		tool string
		in   string
		want string
	}{
		{"read_file", `{}`, `required parameter "path" is missing`},
		{"read_file", `{"path": "a.txt", "lines": 3}`, `unknown parameter "lines"`},
		{"read_file", `{"path": "a.txt", "start_line": "3"}`, `"start_line" must be an integer`},
		{"read_file", `[1]`, `must be a JSON object`},
		{"read_file", `{"path": `, `not valid JSON`},
		{"multi_patch", `{"edits": [{"path": "a.txt", "old_text": "a"}]}`, `"edits[0].new_text" is missing`},
		{"patch_file", `{"path": "a.txt", "old_text": "a", "new_text": "b", "replace_all": "yes"}`, `"replace_all" must be true or false`},
		{"nope", `{}`, `no tool called "nope"`},
	} {
		res, err := f.reg.Execute(t.Context(), tc.tool, json.RawMessage(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		expect(t, res, true, tc.want)
	}
	// Optional parameters may be null.
	expect(t, f.call("read_file", map[string]any{"path": "a.txt", "start_line": nil}), false, "1\ta")
}

func TestLabels(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	for _, tc := range []struct {
		tool, in, want string
	}{
		{"list_files", `{}`, "→ Listing files: . (current directory)"},
		{"list_files", `{"path": "src"}`, "→ Listing files: src"},
		{"read_file", `{"path": "main.go", "start_line": 1, "end_line": 120}`, "→ Reading file: main.go (lines 1-120)"},
		{"read_file", `{"path": "main.go"}`, "→ Reading file: main.go"},
		{"grep", `{"pattern": "func main", "file_pattern": "*.go"}`, "→ Searching: 'func main' in . (*.go)"},
		{"glob", `{"pattern": "**/*.go"}`, "→ Finding files: '**/*.go'"},
		{"write_file", `{"path": "notes.txt", "content": "` + strings.Repeat("x", 1229) + `"}`, "→ Writing file: notes.txt (1.2 KB)"},
		{"patch_file", `{"path": "main.go", "old_text": "a", "new_text": "` + strings.Repeat("b", 354) + `"}`, "→ Patching file: main.go: a → " + strings.Repeat("b", 39) + "… (+353 bytes)"},
		// A same-length edit says what it changed and "same size", not "+0 bytes".
		{"patch_file", `{"path": "a.txt", "old_text": "alpha\nbeta\n", "new_text": "alpha\nBETA\n"}`, "→ Patching file: a.txt: beta → BETA (same size)"},
		{"patch_file", `{"path": "a.txt", "old_text": "x\n", "new_text": "x\ny\n"}`, "→ Patching file: a.txt: + y (+2 bytes)"},
		{"multi_patch", `{"edits": [{"path": "a", "old_text": "x", "new_text": "y"}, {"path": "a", "old_text": "p", "new_text": "q"}]}`, "→ Patching file: a (2 edits, same size)"},
		{"run_bash", `{"command": "go test ./..."}`, "→ Running bash: go test ./..."},
		{"multi_patch", `{"edits": [{"path": "a", "old_text": "x", "new_text": "yy"}, {"path": "b", "old_text": "x", "new_text": "y"}]}`, "→ Patching 2 files: a, b (2 edits, +1 bytes)"},
		{"read_file", `{broken`, "→ read_file"},
	} {
		if got := f.reg.Label(tc.tool, json.RawMessage(tc.in)); got != tc.want {
			t.Errorf("Label(%s, %s) = %q, want %q", tc.tool, tc.in, got, tc.want)
		}
	}
}

// Names, which needs no project, lists the tools a session's registry offers.
func TestNamesAreTheRegistrysTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	var want []string
	for _, d := range f.reg.Defs() {
		want = append(want, d.Name)
	}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

// web_search is offered only while a search service is set up: the
// model is never offered a tool that can only say it is not set up.
func TestWebSearchOfferedOnlyWhenSetUp(t *testing.T) {
	t.Parallel()
	root, err := projectroot.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	on := false
	reg := New(Deps{Root: root, WebSearch: func() bool { return on }})
	for _, want := range []bool{false, true, false} {
		on = want
		if _, got := reg.Get(WebSearchTool); got != want {
			t.Errorf("set up %v: offered %v", want, got)
		}
	}
	if _, ok := New(Deps{Root: root}).Get(WebSearchTool); ok {
		t.Error("offered without a WebSearch check")
	}
}
