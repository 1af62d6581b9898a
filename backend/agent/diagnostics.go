package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"pilot/backend/lsp"
	"pilot/backend/store"
	"pilot/backend/toolname"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// Diagnostics is the user's language servers as the agent asks them
// (Deps.Diagnostics); *lsp.Manager is one. root is the session's folder
// (its worktree, or the project folder), paths are relative to it,
// '/'-separated.
type Diagnostics interface {
	// AfterChange syncs the changed files with their servers and waits,
	// within its bound, for what they say about them and the files that
	// import them.
	AfterChange(ctx context.Context, root string, paths []string) lsp.Outcome
	// Current is what the servers say now about path ("": every file
	// they reported on).
	Current(ctx context.Context, root, path string) lsp.Outcome
	// Warm starts the servers of these files in the background (a file
	// read, a change proposed), so the change's check does not wait for
	// a cold server; it never blocks.
	Warm(root string, paths ...string)
}

// warmServers starts the language servers of files the model read or
// proposes to change, while the user reads the proposal.
func (c *call) warmServers(paths []string) {
	t := c.t
	if d := t.l.m.diagnostics; d != nil && len(paths) > 0 {
		d.Warm(t.l.root.Dir(), paths...)
	}
}

const (
	// maxDiagLines caps the diagnostics lines a tool result ends with.
	maxDiagLines = 20
	// maxDiagTool caps the lines of the diagnostics tool's answer.
	maxDiagTool = 50
	// maxDiagItems caps the diagnostics kept on a card.
	maxDiagItems = 50
	// maxDiagPaths caps the files of one command sent to the servers.
	maxDiagPaths = 100
)

// diagState is a session's side of diagnostics: the sentences about
// missing servers already told (once per session), and the error count
// of each file after the last check (the file tree's marks).
type diagState struct {
	mu     sync.Mutex
	told   map[string]bool
	errors map[string]int
}

// diagnose asks the language servers about the files a call's applied
// change touched, and ends the call's result with what they said; the
// card shows it (stored with the call) and the tree's marks follow it.
// It does nothing when no server is set up or none serves those files.
func (c *call) diagnose(ctx context.Context, paths []string) {
	t, r := c.t, c.r
	l := t.l
	d := l.m.diagnostics
	if d == nil || len(paths) == 0 || ctx.Err() != nil {
		return
	}
	var notes []string
	if len(paths) > maxDiagPaths {
		notes = append(notes, fmt.Sprintf("Only the first %d of the %d changed files were checked.", maxDiagPaths, len(paths)))
		paths = paths[:maxDiagPaths]
	}
	start := time.Now()
	o := d.AfterChange(ctx, l.root.Dir(), paths)
	waited := time.Since(start)
	l.m.log.Debug("diagnostics after a change", "session", l.id, "files", len(paths), "took", waited, "server", o.ServerTime)
	if ctx.Err() != nil {
		return // the user stopped the turn while the servers were asked: what they said is not the whole answer
	}
	l.countErrors(o, paths)
	// What project rules deny reading is not said, as the diagnostics
	// tool does not say it.
	kept := o.Diagnostics[:0:0]
	for _, d := range o.Diagnostics {
		if !l.withheld(tools.DiagnosticsTool, d.Path) && !l.withheld(toolname.ReadFile, d.Path) {
			kept = append(kept, d)
		}
	}
	if n := len(o.Diagnostics) - len(kept); n > 0 {
		notes = append(notes, fmt.Sprintf("%d diagnostics in files project rules deny reading were left out.", n))
	}
	o.Diagnostics = kept
	notes = append(l.outcomeNotes(o, waited, true), notes...)
	if len(o.Checked) == 0 && len(o.Diagnostics) == 0 && len(notes) == 0 {
		return
	}
	v := summarize(o.Diagnostics, notes)
	var b strings.Builder
	b.WriteString("Diagnostics after this change")
	if len(o.Answered) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(o.Answered, ", "))
	}
	b.WriteString(":\n")
	writeItems(&b, o.Diagnostics, maxDiagLines)
	if v.Errors+v.Warnings == 0 && len(o.Checked) > 0 && len(o.TimedOut) == 0 && len(o.Failed) == 0 {
		if rest := l.unchecked(paths, o.Checked); len(rest) == 0 {
			b.WriteString("No errors or warnings in the changed files.\n")
		} else { // a file no server checked is not said to be clean
			fmt.Fprintf(&b, "No errors or warnings in the files a language server checked (%s); no server checked %s.\n", clipList(o.Checked), clipList(rest))
		}
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
	r.out.text = strings.TrimRight(r.out.text, "\n") + "\n\n" + strings.TrimRight(b.String(), "\n")
	r.view.Diagnostics = v
	js, err := json.Marshal(v)
	if err == nil {
		err = l.m.st.ToolCalls.SetRecord(context.WithoutCancel(ctx), r.rec.ID, store.RecordDiagnostics, string(js))
	}
	if err != nil {
		l.m.log.Warn("saving the call's diagnostics", "session", l.id, "err", err)
	}
}

// filePaths are the files a change writes.
func filePaths(p *tools.Proposal) []string {
	paths := make([]string, len(p.Files))
	for i, f := range p.Files {
		paths[i] = f.Path
	}
	return paths
}

// diagnosticsTool answers the diagnostics tool (tools.Deps.Diagnostics).
func (l *live) diagnosticsTool(ctx context.Context, rel string, withheld func(string) bool) string {
	start := time.Now()
	o := l.m.diagnostics.Current(ctx, l.root.Dir(), rel)
	waited := time.Since(start)
	l.countErrors(o, nil)
	held := map[string]bool{}
	kept := o.Diagnostics[:0:0]
	for _, d := range o.Diagnostics {
		if withheld(d.Path) {
			held[d.Path] = true
			continue
		}
		kept = append(kept, d)
	}
	notes := l.outcomeNotes(o, waited, false)
	v := summarize(kept, nil)
	what := "the files a language server has reported on"
	if rel != "" {
		what = rel
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Diagnostics of %s now:\n", what)
	writeItems(&b, kept, maxDiagTool)
	switch {
	case v.Errors+v.Warnings > 0:
	case len(o.TimedOut) > 0 || len(o.Failed) > 0:
	case rel != "" && len(o.Checked) == 0 && len(o.Diagnostics) == 0 && len(notes) == 0 && l.isDir(rel):
		fmt.Fprintf(&b, "No language server has reported on a file in %s yet: none was changed in this session, none serves its files, or their server is not installed. Give a file's path to check it.\n", rel)
	case rel != "" && len(o.Checked) == 0 && len(o.Diagnostics) == 0 && len(notes) == 0:
		fmt.Fprintf(&b, "No language server has reported on %s: none serves this kind of file, or its server is not installed.\n", rel)
	case rel == "" && len(o.Checked) == 0 && len(o.Diagnostics) == 0:
		b.WriteString("No language server has reported on any file of this session yet.\n")
	case len(held) > 0:
		b.WriteString("No errors or warnings in the other files.\n")
	default:
		fmt.Fprintf(&b, "No errors or warnings in %s.\n", what)
	}
	if len(held) > 0 {
		fmt.Fprintf(&b, "The diagnostics of %d %s were left out: project rules deny reading them.\n", len(held), map[bool]string{true: "file", false: "files"}[len(held) == 1])
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// isDir reports whether rel is a folder of the session's.
func (l *live) isDir(rel string) bool {
	fi, _, err := l.root.Stat(rel)
	return err == nil && fi.IsDir()
}

// outcomeNotes are the sentences of an outcome that its diagnostics do
// not say: servers that timed out or failed, and missing ones (told once
// per session when once is set).
func (l *live) outcomeNotes(o lsp.Outcome, waited time.Duration, once bool) []string {
	var notes []string
	for _, name := range o.TimedOut {
		notes = append(notes, fmt.Sprintf("%s did not answer within %s; diagnostics unknown.", name, seconds(waited)))
	}
	for _, f := range o.Failed {
		notes = append(notes, sentence(f)+" Diagnostics unknown.")
	}
	for _, f := range o.Restarted {
		notes = append(notes, sentence(f))
	}
	l.diag.mu.Lock()
	defer l.diag.mu.Unlock()
	for _, m := range o.Missing {
		if once && l.diag.told[m] {
			continue
		}
		if l.diag.told == nil {
			l.diag.told = map[string]bool{}
		}
		l.diag.told[m] = true
		notes = append(notes, m)
	}
	return notes
}

// countErrors keeps each file's error count after o (the tree's marks)
// and tells the window which files' marks changed. A checked file with
// no error, or a changed file that no longer exists, loses its mark.
func (l *live) countErrors(o lsp.Outcome, changed []string) {
	now := map[string]int{}
	for _, p := range o.Checked {
		now[p] = 0
	}
	for _, p := range changed {
		if _, err := l.root.FS().Lstat(p); errors.Is(err, fs.ErrNotExist) {
			now[p] = 0
		}
	}
	for _, d := range o.Diagnostics {
		if d.Severity == wire.SeverityError {
			now[d.Path]++
		} else if _, ok := now[d.Path]; !ok {
			now[d.Path] = 0
		}
	}
	var moved []string
	l.diag.mu.Lock()
	if l.diag.errors == nil {
		l.diag.errors = map[string]int{}
	}
	for p, n := range now {
		if l.diag.errors[p] == n {
			continue
		}
		moved = append(moved, p)
		if n == 0 {
			delete(l.diag.errors, p)
		} else {
			l.diag.errors[p] = n
		}
	}
	l.diag.mu.Unlock()
	if len(moved) == 0 {
		return
	}
	slices.Sort(moved)
	l.send(wire.AgentDiagnostics, func(q wire.Seq) any { return wire.DiagnosticsPayload{Seq: q, Paths: moved} })
}

// FileErrors returns the error count of each file of a session with
// errors after its last check ('/'-separated paths relative to its
// folder); nil when the session has none or is not loaded.
func (m *Manager) FileErrors(sessionID int64) map[string]int {
	l := m.loaded(sessionID)
	if l == nil {
		return nil
	}
	l.diag.mu.Lock()
	defer l.diag.mu.Unlock()
	if len(l.diag.errors) == 0 {
		return nil
	}
	out := make(map[string]int, len(l.diag.errors))
	for p, n := range l.diag.errors {
		out[p] = n
	}
	return out
}

// summarize counts the errors and warnings and keeps the first of them
// (errors first), with the notes as one sentence.
func summarize(items []wire.Diagnostic, notes []string) *wire.Diagnostics {
	v := &wire.Diagnostics{Items: []wire.Diagnostic{}, Note: strings.Join(notes, " ")}
	for _, d := range ordered(items) {
		switch d.Severity {
		case wire.SeverityError:
			v.Errors++
		case wire.SeverityWarning:
			v.Warnings++
		default:
			continue
		}
		if len(v.Items) < maxDiagItems {
			v.Items = append(v.Items, d)
		}
	}
	return v
}

// ordered is the errors, then the warnings, each in path, line, column
// order; info and hints are left out.
func ordered(items []wire.Diagnostic) []wire.Diagnostic {
	rank := func(s wire.DiagnosticSeverity) int {
		switch s {
		case wire.SeverityError:
			return 0
		case wire.SeverityWarning:
			return 1
		}
		return 2
	}
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b wire.Diagnostic) int {
		if c := rank(a.Severity) - rank(b.Severity); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	i := slices.IndexFunc(out, func(d wire.Diagnostic) bool { return rank(d.Severity) == 2 })
	if i >= 0 {
		out = out[:i]
	}
	return out
}

// writeItems writes up to max errors and warnings as
// "path:line:col: severity: message", then how many more there are.
func writeItems(b *strings.Builder, items []wire.Diagnostic, max int) {
	all := ordered(items)
	for i, d := range all {
		if i == max {
			fmt.Fprintf(b, "and %d more.\n", len(all)-max)
			break
		}
		fmt.Fprintf(b, "%s:%d:%d: %s: %s\n", d.Path, d.Line, d.Col, d.Severity, oneLine(d.Message))
	}
}

// oneLine keeps a message on its line (gopls and tsserver send
// multi-line ones).
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// seconds says a wait as "2 s" or "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + " s"
}

// sentence ends s with a full stop unless it ends a sentence already.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// unchecked are the changed files still there that no server checked.
func (l *live) unchecked(paths, checked []string) []string {
	var out []string
	for _, p := range paths {
		if slices.Contains(checked, p) {
			continue
		}
		if _, err := l.root.FS().Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// clipList names up to three paths, then how many more.
func clipList(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:3], ", "), len(paths)-3)
}
