package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"pilot/backend/cli/visible"
	"pilot/backend/wire"
)

// answerer takes the user's decisions: the service's approval methods,
// which the window calls too.
type answerer interface {
	Change(approvalID string) (wire.ChangeView, error)
	DecideChange(approvalID string, d wire.ChangeDecision) error
	DecideCommand(approvalID string, d wire.CommandDecision) error
	DecideElicitation(approvalID string, d wire.ElicitationDecision) error
}

// terminal is the wire.Emitter of a headless run: assistant text to
// stdout, one "→ label" line per tool call on stderr, or with --json one
// JSON object per line on stdout. Approvals are answered by a prompt on
// the terminal, or refused when there is none.
type terminal struct {
	tio         IO
	json        bool
	mode        wire.ApprovalMode
	elicit      elicitMode
	interactive bool
	in          *bufio.Reader
	answer      answerer

	mu        sync.Mutex
	out       io.Writer // stdout: the answer as it is in a pipe, made visible on a terminal (shownOut)
	flushOut  func()
	enc       *json.Encoder
	shown     map[string]bool // tool calls already announced
	hooksRun  map[string]int  // per tool call, how many of its hook runs were printed
	midLine   bool            // stdout does not end with a newline
	lastError string
	todos     []wire.TodoItem // the task list as last printed
	planned   map[string]bool // plans already printed
	done      chan wire.TurnEndReason
	approvals chan wire.Approval
}

func newTerminal(tio IO, asJSON bool, mode wire.ApprovalMode, elicit elicitMode) *terminal {
	t := &terminal{
		tio: tio, json: asJSON, mode: mode, elicit: elicit, interactive: isTerminal(tio.Stdin),
		in:    bufio.NewReader(tio.Stdin),
		shown: map[string]bool{}, hooksRun: map[string]int{}, planned: map[string]bool{}, done: make(chan wire.TurnEndReason, 1), approvals: make(chan wire.Approval, 64),
	}
	t.out, t.flushOut = shownOut(tio.Stdout, asJSON)
	t.enc = json.NewEncoder(t.out)
	t.enc.SetEscapeHTML(false)
	go t.approveLoop()
	return t
}

// isTerminal reports whether r is a terminal (the kernel's isatty): a
// character device that is not one, such as /dev/null, has nobody at it
// to answer an approval.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Emit prints one event. It runs under the agent's event lock: anything
// that waits for the user is handed to the approval loop.
func (t *terminal) Emit(name string, payload any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch p := payload.(type) {
	case wire.StreamPayload:
		if p.Text == "" {
			return
		}
		if t.json {
			t.line(jsonText{Type: "text", Text: p.Text})
			return
		}
		fmt.Fprint(t.out, p.Text)
		t.midLine = !strings.HasSuffix(p.Text, "\n")
	case wire.ToolPayload:
		t.tool(p.Call)
		t.plan(p.Call)
	case wire.TodosPayload:
		t.todoChanges(p.Todos)
	case wire.ApprovalPayload:
		t.approvals <- p.Approval
	case wire.UsagePayload:
		if t.json {
			t.line(jsonUsage{Type: "usage", Usage: p.Usage})
		}
	case wire.NoticePayload:
		if t.json {
			t.line(jsonNotice{Type: "notice", Kind: string(p.Kind), Text: p.Text})
			return
		}
		t.endLine()
		fmt.Fprintf(t.tio.Stderr, "· %s\n", visible.Line(p.Text))
	case wire.ErrorPayload:
		t.lastError = p.Message
		if t.json {
			t.line(jsonError{Type: "error", Kind: string(p.Kind), Message: p.Message})
		}
	case wire.TurnDonePayload:
		if t.json {
			t.line(jsonDone{Type: "done", Reason: string(p.Reason), SessionID: p.SessionID})
		} else {
			t.endLine()
		}
		t.flushOut()
		t.done <- p.Reason
	}
}

// tool announces a call once and, with --json, reports its result.
func (t *terminal) tool(c wire.ToolCall) {
	if !t.shown[c.ID] {
		t.shown[c.ID] = true
		if t.json {
			t.line(jsonToolCall{Type: "tool_call", ID: c.ID, Name: c.Name, Label: c.Label, Input: c.Input, ParentID: c.ParentID})
		} else {
			t.endLine()
			label := visible.Line(c.Label)
			if !strings.HasPrefix(label, "→") {
				label = "→ " + label
			}
			if c.ParentID != "" {
				label = "  " + label // a helper's call, under its task
			}
			fmt.Fprintln(t.tio.Stderr, label)
		}
	}
	t.hookRuns(c)
	switch c.Status {
	case "running", "awaiting_approval":
		return
	}
	if t.json {
		t.line(jsonToolResult{Type: "tool_result", ID: c.ID, Name: c.Name, Status: string(c.Status), IsError: c.IsError, Output: c.Output, Change: c.Change, Effects: c.Effects, Hooks: c.Hooks, Diagnostics: c.Diagnostics, Instructions: c.Instructions, Elicitations: c.Elicitations})
		return
	}
	switch c.Status {
	case wire.ToolRejected, wire.ToolCancelled:
		fmt.Fprintf(t.tio.Stderr, "  (%s)\n", c.Status)
	case wire.ToolError: // the call could not be done (a command that ran and failed is done)
		fmt.Fprintf(t.tio.Stderr, "  (failed: %s)\n", visible.Line(firstLine(c.Output, 300)))
	}
	if ch := c.Change; ch != nil && (ch.Applied < ch.Total || ch.Edited) && ch.CheckpointID != 0 {
		how := fmt.Sprintf("applied %d of %d hunks", ch.Applied, ch.Total)
		if ch.Edited {
			how = "applied as you edited it"
		}
		fmt.Fprintf(t.tio.Stderr, "  (%s)\n", how)
	}
	if e := c.Effects; e != nil {
		printEffects(t.tio.Stderr, e)
	}
	if d := c.Diagnostics; d != nil {
		fmt.Fprintf(t.tio.Stderr, "  %s\n", visible.Line(diagnosticsLine(d)))
	}
	if len(c.Instructions) > 0 {
		fmt.Fprintf(t.tio.Stderr, "  (gave the model the project's instructions in %s)\n", visible.Line(strings.Join(c.Instructions, ", ")))
	}
}

// diagnosticsLine sums up what the language servers said after a change,
// with the first error or warning: "2 errors, 1 warning after this
// change (a.go:4:2: undefined: frob)"; the note when they said nothing.
func diagnosticsLine(d *wire.Diagnostics) string {
	if d.Errors+d.Warnings == 0 {
		if d.Note != "" {
			return d.Note
		}
		return "No errors after this change."
	}
	var parts []string
	if d.Errors > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", d.Errors, plural(d.Errors, "error", "errors")))
	}
	if d.Warnings > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", d.Warnings, plural(d.Warnings, "warning", "warnings")))
	}
	s := strings.Join(parts, ", ") + " after this change"
	if len(d.Items) > 0 {
		i := d.Items[0]
		s += fmt.Sprintf(" (%s:%d:%d: %s)", i.Path, i.Line, i.Col, firstLine(i.Message, 200))
	}
	if d.Note != "" {
		s += "; " + d.Note
	}
	return s
}

// line writes one JSON object; t.mu is held.
func (t *terminal) line(v any) {
	if err := t.enc.Encode(v); err != nil {
		fmt.Fprintln(t.tio.Stderr, "pilot:", err)
	}
}

// endLine ends streamed text with a newline before other output; t.mu is
// held.
func (t *terminal) endLine() {
	if t.midLine {
		fmt.Fprintln(t.out)
		t.midLine = false
	}
}

// failure returns the last error sentence the turn reported.
func (t *terminal) failure() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastError
}

// hookRuns prints, once each, the hook runs of a call that decided
// something or failed (a hook that only let the call go is not printed).
func (t *terminal) hookRuns(c wire.ToolCall) {
	for _, h := range c.Hooks[min(t.hooksRun[c.ID], len(c.Hooks)):] {
		if t.json || h.Decision == wire.HookNone {
			continue
		}
		t.endLine()
		line := fmt.Sprintf("  %s hook %q: %s in %d ms", h.Event, h.Hook, h.Decision, h.Ms) // %q escapes what is not printable
		if h.Message != "" {
			line += ": " + visible.Line(firstLine(h.Message, 300))
		}
		fmt.Fprintln(t.tio.Stderr, line)
	}
	t.hooksRun[c.ID] = len(c.Hooks)
}

// firstLine is s up to its first line break and at most n bytes, with a
// mark when cut.
func firstLine(s string, n int) string {
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if len(s) > n {
		s, cut = strings.ToValidUTF8(s[:n], ""), true
	}
	if cut {
		s += " ..."
	}
	return s
}
