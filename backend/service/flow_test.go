package service

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// waiter records events and lets a test wait for one.
type waiter struct {
	mu     sync.Mutex
	cond   *sync.Cond
	events []any
}

func newWaiter() *waiter {
	w := &waiter{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *waiter) Emit(_ string, p any) {
	w.mu.Lock()
	w.events = append(w.events, p)
	w.mu.Unlock()
	w.cond.Broadcast()
}

// wait returns the first recorded payload that ok accepts.
func (w *waiter) wait(t *testing.T, ok func(any) bool) any {
	t.Helper()
	deadline := time.AfterFunc(10*time.Second, w.cond.Broadcast)
	defer deadline.Stop()
	start := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for _, e := range w.events {
			if ok(e) {
				return e
			}
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("event not seen in 10 s; got %d events", len(w.events))
		}
		w.cond.Wait()
	}
}

// openChat opens a service on the fake model srv (stopped after the
// test), the project dir and a new session in it, as the window does.
func openChat(t *testing.T, srv *fakellm.Server, dir string) (*Service, *waiter, wire.Project, wire.SessionSummary) {
	t.Helper()
	t.Cleanup(srv.Close)
	w := newWorkspace(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return w, ev, p, s
}

// TestWindowFlow drives the service the way the window does: open a
// project, start a session, send a prompt, review the proposed change,
// approve one of two hunks, and find the result on disk, in the file tree
// and in the reopened session.
func TestWindowFlow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	orig := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	proposed := strings.Replace(strings.Replace(orig, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1)
	input, _ := json.Marshal(map[string]string{"path": "notes.txt", "content": proposed})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Reading first.", ToolCalls: []fakellm.ToolCall{{Name: "read_file", Input: json.RawMessage(`{"path":"notes.txt"}`)}}},
		{Text: "Now the edit.", ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: input}}},
		{Text: "Done: the first change is in.", When: &fakellm.When{ToolResultContains: "hunk"}},
	}})
	w, ev, p, s := openChat(t, srv, dir)
	ctx := context.Background()
	if s.Provider != "anthropic" || s.Model == "" {
		t.Fatalf("session %+v: want the provider and model in force", s)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Capitalise two and eleven in notes.txt", nil); err != nil {
		t.Fatal(err)
	}
	a := ev.wait(t, func(e any) bool { _, ok := e.(wire.ApprovalPayload); return ok }).(wire.ApprovalPayload)
	change, err := w.Approvals.Change(a.Approval.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(change.Files) != 1 || len(change.Files[0].Hunks) != 2 {
		t.Fatalf("change %+v: want one file with two hunks", change)
	}
	// The window fetches the proposed text only to edit it.
	if text, err := w.Approvals.ProposedText(a.Approval.ID, "notes.txt"); err != nil || text != change.Files[0].NewText || !strings.Contains(text, "TWO") {
		t.Errorf("ProposedText = %q, %v; want the proposed text", text, err)
	}
	if _, err := w.Approvals.ProposedText(a.Approval.ID, "other.txt"); err == nil {
		t.Error("ProposedText of a file the change does not touch succeeded")
	}
	if err := w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{
		Files: []wire.FileDecision{{Path: "notes.txt", Hunks: []bool{true, false}}}, Feedback: "leave eleven alone",
	}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { _, ok := e.(wire.TurnDonePayload); return ok })

	got, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if want := strings.Replace(orig, "two\n", "TWO\n", 1); string(got) != want {
		t.Fatalf("file now %q, want %q", got, want)
	}
	if err := w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{}); err == nil {
		t.Error("a second decision was accepted")
	}
	if _, err := w.Approvals.ProposedText(a.Approval.ID, "notes.txt"); err == nil {
		t.Error("ProposedText of a decided change succeeded")
	}

	listing, err := w.Files.ListDir(ctx, p.ID, 0, wire.DirPageQuery{Limit: 10})
	if err != nil || !slices.Equal(listing.Entries, []wire.TreeEntry{{Name: "notes.txt", Changed: true}}) {
		t.Fatalf("ListDir = %+v, %v: want notes.txt marked changed", listing, err)
	}
	// After the first turn the model names the session.
	titled := ev.wait(t, func(e any) bool {
		p, ok := e.(wire.SessionPayload)
		return ok && strings.HasPrefix(p.Session.Title, "About ")
	}).(wire.SessionPayload)
	if titled.Session.Title != "About Capitalise two and eleven in" || srv.TitleRequests() != 1 {
		t.Errorf("title %q after %d title requests", titled.Session.Title, srv.TitleRequests())
	}
	d, err := w.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.State != "idle" || len(d.Pending) != 0 {
		t.Errorf("state %q pending %v", d.State, d.Pending)
	}
	if len(d.ToolCalls) != 2 || d.ToolCalls[0].Label != "→ Reading file: notes.txt" || d.ToolCalls[1].Status != "done" {
		t.Errorf("tool calls %+v", d.ToolCalls)
	}
	// Tool results' text is not sent (the card has the output); small
	// inputs are (cards may read them; present.WindowInputMax).
	for _, c := range d.ToolCalls {
		if c.Input == nil || c.Output == "" {
			t.Errorf("tool call %s sent with input %s, output %q", c.ID, c.Input, c.Output)
		}
	}
	for _, m := range d.Messages {
		for _, b := range m.Blocks {
			if b.Type == "tool_result" && b.Text != "" {
				t.Errorf("message %d: tool result sent with its text %q", m.ID, b.Text)
			}
		}
	}
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "assistant" || !strings.Contains(last.Blocks[0].Text, "first change is in") {
		t.Errorf("last message %+v", last)
	}
	if d.Usage.ContextWindow == 0 || d.Usage.InputTokens == 0 {
		t.Errorf("usage %+v", d.Usage)
	}
}

// TestSnapshotMidStream opens a session while its answer streams: the
// snapshot holds the text streamed so far (which the store saves only
// debounced) and the seq of the last event it covers.
func TestSnapshotMidStream(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{StreamTokens: 400, Fault: &fakellm.Fault{DelayMs: 5}}}})
	w, ev, _, s := openChat(t, srv, t.TempDir())
	ctx := context.Background()
	if err := w.Turns.SendMessage(ctx, s.ID, "talk", nil); err != nil {
		t.Fatal(err)
	}
	first := ev.wait(t, func(e any) bool { _, ok := e.(wire.StreamPayload); return ok }).(wire.StreamPayload)
	d, err := w.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Turns.Cancel(s.ID)
	if d.Seq < first.Seq.Seq {
		t.Fatalf("snapshot seq %d is before an event it must contain (%d)", d.Seq, first.Seq.Seq)
	}
	// Every text delta up to the snapshot's seq is in the snapshot, in order.
	var streamed strings.Builder
	ev.mu.Lock()
	for _, e := range ev.events {
		if sp, ok := e.(wire.StreamPayload); ok && sp.Seq.Seq <= d.Seq {
			streamed.WriteString(sp.Text)
		}
	}
	ev.mu.Unlock()
	last := d.Messages[len(d.Messages)-1]
	if last.ID != first.MessageID || last.State != "streaming" || len(last.Blocks) != 1 || last.Blocks[0].Text != streamed.String() {
		t.Fatalf("snapshot's last message %+v; want the %d streamed bytes of message %d", last, streamed.Len(), first.MessageID)
	}
}
