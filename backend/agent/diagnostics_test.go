package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/lsp"
	"pilot/backend/present"
	"pilot/backend/wire"
)

// fileDiag is a test implementation of Diagnostics (the language server
// is not what these tests are about; backend/lsp's tests drive real
// ones). It reads the files from disk as a server would: in a .go file,
// every "frob(" is an error "undefined: frob" and every "TODO" a warning;
// a change to a .go file reports on every .go file of the folder (the
// files that import it). .ts files have no server (Missing, said at every
// call: the agent tells it once per session), .py files' server never
// answers (TimedOut). A change to a file named crash.go finds the server
// crashed since and started again (Restarted): its answer is real.
type fileDiag struct {
	mu      sync.Mutex
	changes [][]string // the paths of each AfterChange
	warmed  []string   // the paths of each Warm
}

func (f *fileDiag) AfterChange(_ context.Context, root string, paths []string) lsp.Outcome {
	f.mu.Lock()
	f.changes = append(f.changes, slices.Clone(paths))
	f.mu.Unlock()
	var o lsp.Outcome
	goChanged := false
	for _, p := range paths {
		switch filepath.Ext(p) {
		case ".go":
			goChanged = true
			if _, err := os.Stat(filepath.Join(root, p)); err == nil {
				o.Checked = append(o.Checked, p)
			}
			if filepath.Base(p) == "crash.go" {
				o.Restarted = []string{"gopls stopped unexpectedly (signal: killed); Pilot started it again"}
			}
		case ".ts":
			o.Missing = []string{"no TypeScript language server found (install typescript-language-server)"}
		case ".py":
			o.TimedOut = []string{"pyright"}
		}
	}
	if goChanged {
		o.Diagnostics = goDiagnostics(root, "")
	}
	return o
}

func (f *fileDiag) Current(_ context.Context, root, path string) lsp.Outcome {
	if path != "" && filepath.Ext(path) != ".go" {
		return lsp.Outcome{}
	}
	o := lsp.Outcome{Diagnostics: goDiagnostics(root, path)}
	if path != "" {
		o.Checked = []string{path}
	}
	return o
}

// Warm notes the files whose servers the agent warmed.
func (f *fileDiag) Warm(_ string, paths ...string) {
	f.mu.Lock()
	f.warmed = append(f.warmed, paths...)
	f.mu.Unlock()
}

func (f *fileDiag) warmedPaths() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.warmed)
}

func (f *fileDiag) calls() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.changes)
}

// goDiagnostics reads the .go files of root (only one when path is set).
func goDiagnostics(root, path string) []wire.Diagnostic {
	var out []wire.Diagnostic
	names, _ := filepath.Glob(filepath.Join(root, "*.go"))
	for _, n := range names {
		rel := filepath.Base(n)
		if path != "" && rel != path {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(b), "\n") {
			if c := strings.Index(line, "frob("); c >= 0 {
				out = append(out, wire.Diagnostic{Path: rel, Line: i + 1, Col: c + 1, Severity: wire.SeverityError, Message: "undefined: frob", Source: "compiler"})
			}
			if c := strings.Index(line, "TODO"); c >= 0 {
				out = append(out, wire.Diagnostic{Path: rel, Line: i + 1, Col: c + 1, Severity: wire.SeverityWarning, Message: "a TODO\nleft behind"})
			}
			if c := strings.Index(line, "HINT"); c >= 0 {
				out = append(out, wire.Diagnostic{Path: rel, Line: i + 1, Col: c + 1, Severity: wire.SeverityHint, Message: "a hint"})
			}
		}
	}
	return out
}

// diagCard is the last card of call id sent to the window.
func diagCard(h *harness, id string) wire.ToolCall {
	h.t.Helper()
	var card wire.ToolCall
	found := false
	for _, p := range h.rec.events(wire.AgentTool) {
		if c := p.(wire.ToolPayload).Call; c.ID == id {
			card, found = c, true
		}
	}
	if !found {
		h.t.Fatalf("no card of call %s", id)
	}
	return card
}

// diagEvents are the paths of every agent:diagnostics event.
func diagEvents(h *harness) [][]string {
	var out [][]string
	for _, p := range h.rec.events(wire.AgentDiagnostics) {
		out = append(out, p.(wire.DiagnosticsPayload).Paths)
	}
	return out
}

// A write that leaves an error: the result the model reads ends with the
// error at its line and column (and the warning after it, and the error
// of the file importing it), the card carries the counts, a reload shows
// them, and the tree marks both files; a patch that fixes it says so and
// takes the marks away.
func TestDiagnosticsAfterChange(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			d := &fileDiag{}
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"a.go","content":"package a\n\nfunc A() {\n\tfrob() // TODO HINT\n}\n"}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("p", "patch_file", `{"path":"a.go","old_text":"\tfrob() // TODO HINT\n","new_text":"\treturn\n"}`)}},
				{Text: "Done."},
			}}, setup{mode: "all", files: map[string]string{"b.go": "package a\n\nfunc B() { frob() }\n"}, diag: d})
			if r := h.turn("write a"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			first := h.results(1)[0].Content
			wantFirst := "Diagnostics after this change:\na.go:4:2: error: undefined: frob\nb.go:3:12: error: undefined: frob\na.go:4:12: warning: a TODO left behind"
			if !strings.HasSuffix(first, wantFirst) {
				t.Errorf("the write's result:\n%s\nwant it to end with:\n%s", first, wantFirst)
			}
			card := diagCard(h, "w")
			if card.Diagnostics == nil || card.Diagnostics.Errors != 2 || card.Diagnostics.Warnings != 1 || len(card.Diagnostics.Items) != 3 {
				t.Fatalf("the write's card: %+v", card.Diagnostics)
			}
			second := h.results(2)[0].Content
			if !strings.HasSuffix(second, "Diagnostics after this change:\nb.go:3:12: error: undefined: frob") {
				t.Errorf("the fix's result:\n%s", second)
			}
			if c := diagCard(h, "p"); c.Diagnostics == nil || c.Diagnostics.Errors != 1 {
				t.Errorf("the fix's card: %+v", c.Diagnostics)
			}
			if got := h.m.FileErrors(h.sess.ID); len(got) != 1 || got["b.go"] != 1 {
				t.Errorf("marks after the fix: %v, want b.go: 1", got)
			}
			ev := diagEvents(h)
			if len(ev) != 2 || !slices.Equal(ev[0], []string{"a.go", "b.go"}) || !slices.Equal(ev[1], []string{"a.go"}) {
				t.Errorf("agent:diagnostics events %v, want [a.go b.go] then [a.go]", ev)
			}
			if calls := d.calls(); len(calls) != 2 || !slices.Equal(calls[0], []string{"a.go"}) {
				t.Errorf("AfterChange calls %v", calls)
			}
			// A reloaded card shows what the live one showed.
			stored, err := h.st.ToolCalls.List(t.Context(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			re := present.ToolCall(stored[0], "")
			if re.Diagnostics == nil || re.Diagnostics.Errors != 2 || re.Diagnostics.Items[0] != card.Diagnostics.Items[0] {
				t.Errorf("the reloaded card: %+v", re.Diagnostics)
			}
		})
	}
}

// A correct change says there are no errors; a file no server serves gets
// no diagnostics block at all.
func TestDiagnosticsCleanAndUnserved(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("g", "write_file", `{"path":"ok.go","content":"package a\n"}`),
			toolCall("n", "write_file", `{"path":"notes.txt","content":"frob(\n"}`),
		}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: &fileDiag{}})
	if r := h.turn("write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(1)
	if !strings.HasSuffix(res[0].Content, "Diagnostics after this change:\nNo errors or warnings in the changed files.") {
		t.Errorf("a correct change:\n%s", res[0].Content)
	}
	if c := diagCard(h, "g"); c.Diagnostics == nil || c.Diagnostics.Errors != 0 || c.Diagnostics.Note != "" {
		t.Errorf("a correct change's card: %+v", c.Diagnostics)
	}
	if strings.Contains(res[1].Content, "Diagnostics") || diagCard(h, "n").Diagnostics != nil {
		t.Errorf("a file no server serves got diagnostics:\n%s", res[1].Content)
	}
}

// A missing server is told once per session, not at every change; a
// server that does not answer is said to, with the time waited.
func TestDiagnosticsMissingOnceTimedOut(t *testing.T) {
	t.Parallel()
	missing := "no TypeScript language server found (install typescript-language-server)"
	d := &fileDiag{}
	script := fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("t1", "write_file", `{"path":"a.ts","content":"let a = 1\n"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("t2", "write_file", `{"path":"b.ts","content":"let b = 1\n"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("py", "write_file", `{"path":"c.py","content":"x = 1\n"}`)}},
		{Text: "Done."},
		// the other session's turn
		{ToolCalls: []fakellm.ToolCall{toolCall("t3", "write_file", `{"path":"c.ts","content":"let c = 1\n"}`)}},
		{Text: "Done."},
	}}
	h := newHarness(t, "anthropic", script, setup{mode: "all", diag: d})
	if r := h.turn("write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := h.results(1)[0].Content; !strings.HasSuffix(got, "Diagnostics after this change:\n"+missing) {
		t.Errorf("the first .ts change:\n%s", got)
	}
	if c := diagCard(h, "t1"); c.Diagnostics == nil || c.Diagnostics.Note != missing {
		t.Errorf("the first .ts change's card: %+v", c.Diagnostics)
	}
	if got := h.results(2)[0].Content; strings.Contains(got, "Diagnostics") || diagCard(h, "t2").Diagnostics != nil {
		t.Errorf("the missing server was told again:\n%s", got)
	}
	py := h.results(3)[0].Content
	if !strings.Contains(py, "Diagnostics after this change:\npyright did not answer within ") || !strings.HasSuffix(py, " s; diagnostics unknown.") || strings.Contains(py, "No errors") {
		t.Errorf("a server that did not answer:\n%s", py)
	}
	// Another session is told again.
	other, err := h.st.Sessions.Create(t.Context(), storeSession(h))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.m.Send(t.Context(), other.ID, "write", nil); err != nil {
		t.Fatal(err)
	}
	if r := h.wait(); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	reqs := h.srv.Requests()
	if got := reqs[len(reqs)-1].ToolResults[0].Content; !strings.HasSuffix(got, missing) {
		t.Errorf("another session's first .ts change:\n%s", got)
	}
}

// A server that crashed since the last change and was started again for
// this one says so, and what it answered is given as known: no
// "diagnostics unknown", the errors listed and counted.
func TestDiagnosticsAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"crash.go","content":"package a\nfunc A() { frob() }\n"}`)}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: &fileDiag{}})
	if r := h.turn("write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	got := h.results(1)[0].Content
	want := "Diagnostics after this change:\ncrash.go:2:12: error: undefined: frob\ngopls stopped unexpectedly (signal: killed); Pilot started it again."
	if !strings.HasSuffix(got, want) || strings.Contains(got, "unknown") {
		t.Errorf("want the result to end with\n%s\ngot:\n%s", want, got)
	}
	if c := diagCard(h, "w"); c.Diagnostics == nil || c.Diagnostics.Errors != 1 {
		t.Errorf("card %+v", c.Diagnostics)
	}
}

// Many errors are capped in the result, with how many more there are;
// the card counts them all.
func TestDiagnosticsCapped(t *testing.T) {
	t.Parallel()
	content := "package a\n" + strings.Repeat("func _() { frob() }\n", 25)
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"a.go","content":`+jsonString(t, content)+`}`)}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: &fileDiag{}})
	if r := h.turn("write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	got := h.results(1)[0].Content
	if n := strings.Count(got, ": error: undefined: frob"); n != 20 || !strings.HasSuffix(got, "a.go:21:12: error: undefined: frob\nand 5 more.") {
		t.Errorf("%d error lines:\n%s", n, got)
	}
	if c := diagCard(h, "w"); c.Diagnostics == nil || c.Diagnostics.Errors != 25 {
		t.Errorf("card %+v", c.Diagnostics)
	}
}

// A command's effects on source files are checked like a write; its
// deleted file loses its mark.
func TestDiagnosticsAfterCommand(t *testing.T) {
	t.Parallel()
	d := &fileDiag{}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"a.go","content":"package a\nfunc A() { frob() }\n"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("c", "run_bash", `{"command":"rm a.go && printf 'package a\\nfunc C() { frob() }\\n' > c.go && echo x > note.txt"}`)}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: d})
	h.approveAll()
	if r := h.turn("go"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	got := h.results(2)[0].Content
	if !strings.HasSuffix(got, "Diagnostics after this change:\nc.go:2:12: error: undefined: frob") {
		t.Errorf("the command's result:\n%s", got)
	}
	calls := d.calls()
	if len(calls) != 2 || !slices.Equal(calls[1], []string{"a.go", "c.go", "note.txt"}) {
		t.Errorf("AfterChange calls %v, want the command's effects", calls)
	}
	if c := diagCard(h, "c"); c.Diagnostics == nil || c.Diagnostics.Errors != 1 {
		t.Errorf("the command's card: %+v", c.Diagnostics)
	}
	if got := h.m.FileErrors(h.sess.ID); len(got) != 1 || got["c.go"] != 1 {
		t.Errorf("marks %v, want c.go only (a.go was deleted)", got)
	}
}

// The diagnostics tool reads a file's or the project's diagnostics; a
// file a deny rule withholds is left out and counted.
func TestDiagnosticsTool(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a.go":      "package a\nfunc A() { frob() }\n",
		"secret.go": "package a\nfunc S() { frob() }\n",
		"ok.go":     "package a\n",
		"docs/a.md": "# A\n",
	}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("a", "diagnostics", `{"path":"a.go"}`),
			toolCall("p", "diagnostics", `{}`),
			toolCall("o", "diagnostics", `{"path":"ok.go"}`),
			toolCall("t", "diagnostics", `{"path":"notes.txt"}`),
			toolCall("s", "diagnostics", `{"path":"secret.go"}`),
			toolCall("d", "diagnostics", `{"path":"docs"}`),
		}},
		{Text: "Done."},
	}}, setup{mode: "ask", files: files, diag: &fileDiag{}})
	addRule(t, h, "deny", "read_file", "secret.go")
	if r := h.turn("check"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(1)
	want := []string{
		"Diagnostics of a.go now:\na.go:2:12: error: undefined: frob",
		"Diagnostics of the files a language server has reported on now:\na.go:2:12: error: undefined: frob\nThe diagnostics of 1 file were left out: project rules deny reading them.",
		"Diagnostics of ok.go now:\nNo errors or warnings in ok.go.",
		"Diagnostics of notes.txt now:\nNo language server has reported on notes.txt: none serves this kind of file, or its server is not installed.",
	}
	for i, w := range want {
		if res[i].IsError || res[i].Content != w {
			t.Errorf("call %d: %q (error %v), want %q", i, res[i].Content, res[i].IsError, w)
		}
	}
	if !res[4].IsError || res[4].Content != "The diagnostics of secret.go are withheld: a project rule denies reading that file." {
		t.Errorf("a withheld file's diagnostics: %+v", res[4])
	}
	if !strings.HasPrefix(res[5].Content, "Diagnostics of docs now:\nNo language server has reported on a file in docs yet") {
		t.Errorf("a folder: %q", res[5].Content)
	}
	if got := h.m.FileErrors(h.sess.ID); got["a.go"] != 1 || got["secret.go"] != 1 {
		t.Errorf("marks %v", got)
	}
}

// Without language servers the tool says so and changes end as before.
func TestDiagnosticsNone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("d", "diagnostics", `{}`),
			toolCall("w", "write_file", `{"path":"a.go","content":"package a\n"}`),
		}},
		{Text: "Done."},
	}}, setup{mode: "all"})
	if r := h.turn("check"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(1)
	if !res[0].IsError || !strings.Contains(res[0].Content, "No language servers are set up") {
		t.Errorf("the tool without servers: %+v", res[0])
	}
	if strings.Contains(res[1].Content, "Diagnostics") {
		t.Errorf("a write without servers:\n%s", res[1].Content)
	}
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The servers of a file the model read, and of a change it proposes, are
// started ahead (before the user decides), so the change's check does
// not wait for a cold server; a file that failed to read warms nothing.
func TestDiagnosticsWarmServers(t *testing.T) {
	t.Parallel()
	d := &fileDiag{}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w0", "write_file", `{"path":"a.go","content":"package a\n"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("r", "read_file", `{"path":"a.go"}`), toolCall("r2", "read_file", `{"path":"missing.go"}`)}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: d})
	if r := h.turn("read and write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := d.warmedPaths(); !slices.Equal(got, []string{"a.go", "a.go"}) {
		t.Errorf("warmed %q, want a.go for the proposed write and a.go for the read (not the missing file)", got)
	}
}

// A file no server checked is not said to be clean: a command that made a
// clean .go file and a .txt file is told which files were checked.
func TestDiagnosticsSayWhatWasChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c", "run_bash", `{"command":"printf 'package a\\n' > ok.go && echo x > notes.txt"}`)}},
		{Text: "Done."},
	}}, setup{mode: "all", diag: &fileDiag{}})
	if r := h.turn("run"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	got := h.results(1)[0].Content
	if !strings.HasSuffix(got, "No errors or warnings in the files a language server checked (ok.go); no server checked notes.txt.") || strings.Contains(got, "in the changed files") {
		t.Errorf("the result claims more than was checked:\n%s", got)
	}
}
