package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/mcptest"
	"pilot/backend/wire"
)

// summaryOf matches a session:updated payload of session id that ok accepts.
func summaryOf(id int64, ok func(wire.SessionSummary) bool) func(any) bool {
	return func(e any) bool {
		p, is := e.(wire.SessionPayload)
		return is && p.Session.ID == id && ok(p.Session)
	}
}

// TestWindowSeesAnotherProcessRun: a headless service (as `pilot -p`) and
// a window's service on one PILOT_HOME. While the headless one's turn
// runs, the window lists the session as run elsewhere (its pid, its
// state), tells the face so with the messages it committed readable, and
// once the turn ends lists it as not running, with what it wrote.
func TestWindowSeesAnotherProcessRun(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "one two three four five six", Fault: &fakellm.Fault{StallAfterEvents: 4}}}})
	t.Cleanup(srv.Close)
	home := t.TempDir()
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()}
	ctx := context.Background()
	cli, err := Open(ctx, Options{Home: home, Headless: true, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cli.Close)
	win := openAt(t, home, env)
	t.Cleanup(win.Close)
	seen := newWaiter()
	win.SetEmitter(seen)

	p, err := cli.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := cli.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.Turns.SendMessage(ctx, s.ID, "hello from the other process", nil); err != nil {
		t.Fatal(err)
	}

	got := seen.wait(t, summaryOf(s.ID, func(v wire.SessionSummary) bool {
		return v.Elsewhere != nil && v.Elsewhere.State == wire.StateStreaming
	})).(wire.SessionPayload)
	if got.Session.Elsewhere.Pid != os.Getpid() {
		t.Fatalf("the run is said to be pid %d's; want %d", got.Session.Elsewhere.Pid, os.Getpid())
	}
	list, err := win.Sessions.List(ctx, p.ID, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Elsewhere == nil || list[0].Elsewhere.Pid != os.Getpid() {
		t.Fatalf("the window's list %+v; want the session run elsewhere", list)
	}
	// A second turn of the same session from the window is refused, with a sentence naming the process.
	if err := win.Turns.SendMessage(ctx, s.ID, "me too", nil); !errors.Is(err, ErrRunsElsewhere) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d): wait for its turn to end", os.Getpid())) {
		t.Fatalf("sending in a session another process runs: %v", err)
	}
	d, err := win.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Session.Elsewhere == nil {
		t.Fatalf("the open session's summary does not say it runs elsewhere: %+v", d.Session)
	}
	if !transcriptHas(d, "hello from the other process") {
		t.Fatalf("the window does not read the other process's message: %+v", d.Messages)
	}

	cli.Turns.Cancel(s.ID)
	seen.wait(t, summaryOf(s.ID, func(v wire.SessionSummary) bool { return v.Elsewhere == nil && v.State != wire.SessionRunning }))
	list, err = win.Sessions.List(ctx, p.ID, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if list[0].Elsewhere != nil || list[0].State == wire.SessionRunning {
		t.Fatalf("after the turn ended the window lists %+v; want it not running", list[0])
	}
	if d, err = win.Sessions.Get(ctx, s.ID, 0); err != nil || !transcriptHas(d, "one") {
		t.Fatalf("the window does not read what the other process streamed (%v): %+v", err, d.Messages)
	}
}

// TestMarkerOfAKilledProcess: a marker whose holder is gone (the kernel
// closed its file: here, closed without the clean-up) is no run, and a
// session the store still says is running is listed as interrupted.
func TestMarkerOfAKilledProcess(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	win := openAt(t, home, nil)
	t.Cleanup(win.Close)
	other := openAt(t, home, nil)
	t.Cleanup(other.Close)
	ctx := context.Background()
	p, err := win.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := win.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := win.core.store.Sessions.SetState(ctx, s.ID, "running"); err != nil {
		t.Fatal(err)
	}
	other.core.elsewhere.markRunning(s.ID, wire.StateToolExecuting)
	if runs := win.core.elsewhere.runs(); !reflect.DeepEqual(runs[s.ID], wire.ElsewhereRun{Pid: os.Getpid(), State: wire.StateToolExecuting}) {
		t.Fatalf("held marker read as %+v", runs)
	}
	if runs := other.core.elsewhere.runs(); len(runs) != 0 {
		t.Fatalf("a process reads its own run as another's: %+v", runs)
	}
	other.core.markers.mu.Lock()
	other.core.markers.held[s.ID].f.Close() // as the kernel does for a killed process: the file stays
	delete(other.core.markers.held, s.ID)
	other.core.markers.mu.Unlock()
	if runs := win.core.elsewhere.runs(); len(runs) != 0 {
		t.Fatalf("a marker nobody holds read as a run: %+v", runs)
	}
	list, err := win.Sessions.List(ctx, p.ID, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if list[0].Elsewhere != nil || list[0].State != wire.SessionInterrupted {
		t.Fatalf("a session whose process died is listed as %+v; want interrupted", list[0])
	}
}

// TestMarkerSaysWhatWaits: the approvals a run waits for, as its process's
// agent events ask and decide them, are read by the other processes; the
// marker goes with the turn.
func TestMarkerSaysWhatWaits(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	win := openAt(t, home, nil)
	t.Cleanup(win.Close)
	other := openAt(t, home, nil)
	t.Cleanup(other.Close)
	const id = 7
	q := wire.Seq{SessionID: id}
	ask := wire.Approval{ID: "a1", Kind: wire.ApprovalCommand, Tool: "run_bash", Command: "make test"}
	other.Emit(wire.AgentState, wire.StatePayload{Seq: q, State: wire.StateAwaitingApproval})
	other.Emit(wire.AgentApproval, wire.ApprovalPayload{Seq: q, Approval: ask})
	want := wire.ElsewhereRun{Pid: os.Getpid(), State: wire.StateAwaitingApproval, Waiting: []wire.Approval{ask}}
	if got := win.core.elsewhere.runs()[id]; !reflect.DeepEqual(got, want) {
		t.Fatalf("waiting run read as %+v; want %+v", got, want)
	}
	other.Emit(wire.AgentApprovalDone, wire.ApprovalDonePayload{Seq: q, ApprovalID: "a1", Outcome: wire.OutcomeApproved})
	other.Emit(wire.AgentState, wire.StatePayload{Seq: q, State: wire.StateToolExecuting})
	if got := win.core.elsewhere.runs()[id]; got.State != wire.StateToolExecuting || len(got.Waiting) != 0 {
		t.Fatalf("after the decision the run reads %+v", got)
	}
	other.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Seq: q, Reason: wire.EndTurn})
	if runs := win.core.elsewhere.runs(); len(runs) != 0 {
		t.Fatalf("after the turn the runs read %+v", runs)
	}
	if _, err := os.Stat(other.core.elsewhere.markerPath(id)); !os.IsNotExist(err) {
		t.Fatalf("the marker of an ended turn is left: %v", err)
	}
}

func transcriptHas(d wire.SessionDetail, text string) bool {
	for _, m := range d.Messages {
		for _, b := range m.Blocks {
			if strings.Contains(b.Text, text) {
				return true
			}
		}
	}
	return false
}

// TestInboxAcrossSessions: the inbox lists the waiting decisions of
// sessions of two projects, one in a worktree, oldest first, each with its
// session's name, branch, project and the agent's words before the call;
// one decided on its session's card, or withdrawn by a cancel, leaves it.
func TestInboxAcrossSessions(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, map[string]string{"notes.txt": "one\n"})
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	change, _ := json.Marshal(map[string]string{"path": "loud.txt", "content": "ONE\n"})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "capitalise"}, Text: "I will capitalise the notes.", ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: change}}},
		{When: &fakellm.When{LastUserContains: "list the tree"}, Text: "Listing the worktree first.", ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: json.RawMessage(`{"command":"ls -la"}`)}}},
		{When: &fakellm.When{LastUserContains: "count lines"}, ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: json.RawMessage(`{"command":"wc -l b.txt"}`)}}},
		{When: &fakellm.When{HasToolResult: true}, Repeat: true, Text: "Done."},
	}})
	w, ev, p1, s1 := openChat(t, srv, repo)
	ctx := context.Background()
	// One at a time (an empty session is dropped when another is made),
	// so the order they wait in is known.
	asked := map[int64]wire.Approval{}
	send := func(id int64, text string) {
		t.Helper()
		if err := w.Turns.SendMessage(ctx, id, text, nil); err != nil {
			t.Fatalf("session %d: %v", id, err)
		}
		asked[id] = ev.wait(t, func(e any) bool {
			a, ok := e.(wire.ApprovalPayload)
			return ok && a.SessionID == id
		}).(wire.ApprovalPayload).Approval
	}
	send(s1.ID, "Please capitalise notes.txt")
	if err := w.Sessions.Rename(ctx, s1.ID, "Capitals"); err != nil {
		t.Fatal(err)
	}
	s2, err := w.Worktrees.NewSession(ctx, p1.ID, "tree")
	if err != nil {
		t.Fatal(err)
	}
	send(s2.ID, "Please list the tree")
	s3, err := w.Sessions.New(ctx, mustProject(t, w, other))
	if err != nil {
		t.Fatal(err)
	}
	send(s3.ID, "Please count lines of b.txt")

	items, err := w.Approvals.Inbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.InboxItem{
		{SessionID: s1.ID, Title: "Capitals", Project: filepath.Base(repo), ProjectPath: p1.Path, Reason: "I will capitalise the notes."},
		{SessionID: s2.ID, Title: "Please list the tree", Branch: "pilot/tree", Project: filepath.Base(repo), ProjectPath: p1.Path, Reason: "Listing the worktree first."},
		{SessionID: s3.ID, Title: "Please count lines of b.txt", Project: filepath.Base(other), ProjectPath: other, Reason: ""}, // the model said nothing
	}
	kinds := []wire.ApprovalKind{wire.ApprovalChange, wire.ApprovalCommand, wire.ApprovalCommand}
	if len(items) != len(want) {
		t.Fatalf("inbox has %d items, want %d: %+v", len(items), len(want), items)
	}
	for i, wt := range want {
		g := items[i]
		if g.SessionID != wt.SessionID || g.Title != wt.Title || g.Branch != wt.Branch || g.Project != wt.Project || g.ProjectPath != wt.ProjectPath || g.Reason != wt.Reason {
			t.Errorf("item %d = session %d %q branch %q project %q (%s) reason %q; want session %d %q branch %q project %q (%s) reason %q",
				i, g.SessionID, g.Title, g.Branch, g.Project, g.ProjectPath, g.Reason, wt.SessionID, wt.Title, wt.Branch, wt.Project, wt.ProjectPath, wt.Reason)
		}
		if g.Approval.ID != asked[wt.SessionID].ID || g.Approval.Kind != kinds[i] || g.Since == 0 {
			t.Errorf("item %d = %s %s since %d; want %s %s and a time", i, g.Approval.ID, g.Approval.Kind, g.Since, asked[wt.SessionID].ID, kinds[i])
		}
		if i > 0 && g.Since < items[i-1].Since {
			t.Errorf("item %d waits since %d, before item %d (%d): want oldest first", i, g.Since, i-1, items[i-1].Since)
		}
	}

	// `pilot sessions list` counts them, in this process and in another
	// one on the same data (the command line's, reading the markers).
	cli := openAt(t, w.core.home, nil)
	t.Cleanup(cli.Close)
	for _, face := range []*Service{w, cli} {
		recs, err := face.Records.List(ctx, p1.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Waiting != 1 {
				t.Errorf("session %d listed with %d waiting, want 1", r.ID, r.Waiting)
			}
		}
	}

	// Decided on the session's own card: gone from the inbox, and the
	// inbox's answer to it is refused as the card's second answer is.
	if err := w.Approvals.DecideCommand(asked[s2.ID].ID, wire.CommandDecision{Feedback: "not now"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Approvals.DecideCommand(asked[s2.ID].ID, wire.CommandDecision{Approve: true}); err == nil {
		t.Error("a second answer to a decided command was accepted")
	}
	// Stopped: its question is withdrawn.
	if err := w.Turns.Cancel(s3.ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{s2.ID, s3.ID} {
		ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == id })
	}
	items, err = w.Approvals.Inbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Approval.ID != asked[s1.ID].ID {
		t.Fatalf("inbox after a decision and a cancel = %+v, want only session %d's change", items, s1.ID)
	}
	if err := w.Approvals.DecideChange(asked[s1.ID].ID, wire.ChangeDecision{}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s1.ID })
	if items, err := w.Approvals.Inbox(ctx); err != nil || len(items) != 0 {
		t.Fatalf("inbox after every decision = %+v, %v; want empty", items, err)
	}
}

// TestInboxHoldsEveryKind: a command outside the sandbox, an MCP call and
// the budget wait in the inbox as the change, command and host of
// TestInbox do (the one broker every question goes through), each with
// its session and the agent's words. (A sandboxed command's host needs
// the OS sandbox: the e2e suite's sandbox specs ask it.)
func TestInboxHoldsEveryKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind  wire.ApprovalKind
		calls []fakellm.ToolCall
		setUp func(t *testing.T, w *Service)
	}{
		{kind: wire.ApprovalOutsideSandbox, calls: []fakellm.ToolCall{{Name: "run_bash", Input: []byte(`{"command":"echo hi","sandbox":false,"reason":"it needs the GPU"}`)}}},
		{kind: wire.ApprovalMCP, calls: []fakellm.ToolCall{{Name: "mcp__u__echo", Input: []byte(`{"text":"hi"}`)}}, setUp: func(t *testing.T, w *Service) {
			exe, args, err := mcptest.Command()
			if err != nil {
				t.Fatal(err)
			}
			if err := w.MCP.SaveServer(wire.MCPServerInput{Scope: "user", Name: "u", Type: "stdio", Command: exe, Args: args, Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}}); err != nil {
				t.Fatal(err)
			}
			waitServer(t, w, "u", "ready")
		}},
		{kind: wire.ApprovalBudget, calls: []fakellm.ToolCall{{Name: "glob", Input: []byte(`{"pattern":"*"}`)}}, setUp: func(t *testing.T, w *Service) {
			v, _ := w.Settings.Get()
			if _, err := w.Settings.Save(wire.SettingsInput{Provider: v.Provider, ApprovalMode: v.ApprovalMode, BudgetUSD: 0.000001}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Because it must be asked.", ToolCalls: tc.calls}, {Text: "Done.", Repeat: true}}})
			w, ev, p, _ := openChat(t, srv, t.TempDir())
			ctx := context.Background()
			if tc.setUp != nil {
				tc.setUp(t, w)
			}
			s, err := w.Sessions.New(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Turns.SendMessage(ctx, s.ID, "Ask me", nil); err != nil {
				t.Fatal(err)
			}
			a := ev.wait(t, func(e any) bool { a, ok := e.(wire.ApprovalPayload); return ok && a.SessionID == s.ID }).(wire.ApprovalPayload)
			items, err := w.Approvals.Inbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != 1 || items[0].Approval.ID != a.Approval.ID || items[0].Approval.Kind != tc.kind || items[0].SessionID != s.ID || items[0].Reason != "Because it must be asked." {
				t.Fatalf("asked %+v; the inbox holds %+v", a.Approval, items)
			}
			if err := w.Approvals.DecideCommand(a.Approval.ID, wire.CommandDecision{}); err != nil {
				t.Fatal(err)
			}
			ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s.ID })
		})
	}
}
