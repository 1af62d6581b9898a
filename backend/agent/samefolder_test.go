package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// TestSameFolderSessionsKeptApart: two sessions of one folder work at
// the same time. Session A's command writes, then waits (in the shell) until
// session B's call has either started writing or is shown waiting for A,
// then writes again. Without a folder lock B's writes land between A's
// scans and are recorded as A's, and rewinding A undoes them. With it, B's
// card says it waits for session A, every effect is recorded for the
// session that made it, and rewinding A leaves B's work alone.
func TestSameFolderSessionsKeptApart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		tool  string // B's call
		input string
		file  string // what B writes
		want  string // its content afterwards
	}{
		{"command", "run_bash", `{"command":"echo b1 > b.txt && sleep 0.2 && echo b2 >> b.txt && echo beta-done"}`, "b.txt", "b1\nb2\n"},
		{"edit", "write_file", `{"path":"c.txt","content":"from B\n"}`, "c.txt", "from B\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The command sees the release file in the folder (the sandbox
			// hides the test's other folders); ignored, it is no effect.
			cmdA := `echo a1 > a.txt && while [ ! -e release.tmp ]; do sleep 0.02; done && echo a2 >> a.txt && echo alpha-done`
			inA, _ := json.Marshal(map[string]string{"command": cmdA})
			resultOf := func(id string) func(fakellm.Request) bool {
				return func(r fakellm.Request) bool {
					return slices.ContainsFunc(r.ToolResults, func(tr fakellm.ToolResult) bool { return tr.ToolUseID == id })
				}
			}
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{When: &fakellm.When{LastUserContains: "alpha"}, ToolCalls: []fakellm.ToolCall{toolCall("a1", "run_bash", string(inA))}},
				{When: &fakellm.When{LastUserContains: "beta"}, ToolCalls: []fakellm.ToolCall{toolCall("b1", c.tool, c.input)}},
				{Match: resultOf("a1"), Text: "A done."},
				{Match: resultOf("b1"), Text: "B done."},
			}}, setup{files: map[string]string{"keep.txt": "kept\n", ".gitignore": "*.tmp\n"}})
			h.approveAll()
			ctx := context.Background()
			a := h.sess
			b, err := h.st.Sessions.Create(ctx, store.NewSession{ProjectID: a.ProjectID, Title: "Second task", Provider: a.Provider, Model: a.Model})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.m.Send(ctx, a.ID, "alpha", nil); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "A's command to start", func() bool { _, err := os.Stat(filepath.Join(h.dir, "a.txt")); return err == nil })
			if err := h.m.Send(ctx, b.ID, "beta", nil); err != nil {
				t.Fatal(err)
			}
			// A goes on once B has either written (no lock: B ran inside A's
			// command) or is told to wait for A (the lock).
			waitUntil(t, "B to write or wait", func() bool {
				_, err := os.Stat(filepath.Join(h.dir, c.file))
				return err == nil || waitingFor(h, b.ID) != ""
			})
			if err := os.WriteFile(filepath.Join(h.dir, "release.tmp"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if t.Failed() {
					for _, e := range h.rec.all {
						t.Logf("%s %+v", e.name, e.payload)
					}
				}
			})
			h.wait()
			h.wait()

			if got := waitingFor(h, b.ID); !strings.Contains(got, fmt.Sprintf("Waiting for session %d", a.ID)) || !strings.Contains(got, "running echo a1") {
				t.Errorf("B's card while A's command ran: %q, want it to say it waits for session %d's command", got, a.ID)
			}
			if got := h.read("a.txt"); got != "a1\na2\n" {
				t.Errorf("a.txt %q", got)
			}
			if got := h.read(c.file); got != c.want {
				t.Errorf("%s %q, want %q", c.file, got, c.want)
			}
			if got := recordedFiles(t, h, a.ID); !slices.Equal(got, []string{"a.txt"}) {
				t.Errorf("session A's ledger records %v, want only a.txt", got)
			}
			if got := recordedFiles(t, h, b.ID); !slices.Equal(got, []string{c.file}) {
				t.Errorf("session B's ledger records %v, want only %s", got, c.file)
			}

			// Rewinding A to before its message undoes A's work only.
			ms, err := h.st.Messages.List(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.lg.RewindSession(ctx, a.ID, ms[0].ID, wire.RewindCode, wire.RestoreInput{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) > 0 {
				t.Fatalf("rewinding A: conflicts %+v", res.Conflicts)
			}
			if _, err := fileExists(h, "a.txt"); err == nil {
				t.Error("a.txt, A's work, is still there after rewinding A")
			}
			if got := h.read(c.file); got != c.want {
				t.Errorf("rewinding A changed B's %s: %q, want %q", c.file, got, c.want)
			}
			if h.read("keep.txt") != "kept\n" {
				t.Error("rewinding A changed keep.txt")
			}
		})
	}
}

// waitingFor is what session's live output said about waiting for the
// folder ("" when nothing).
func waitingFor(h *harness, session int64) string {
	for _, e := range h.rec.events(wire.AgentToolOutput) {
		if p := e.(wire.ToolOutputPayload); p.SessionID == session && strings.Contains(p.Chunk, "Waiting for") {
			return p.Chunk
		}
	}
	return ""
}

// recordedFiles lists the files of every checkpoint of session, sorted.
func recordedFiles(t *testing.T, h *harness, session int64) []string {
	t.Helper()
	cps, err := h.st.Checkpoints.List(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cp := range cps {
		for _, f := range cp.Files {
			if !slices.Contains(out, f.Path) {
				out = append(out, f.Path)
			}
		}
	}
	slices.Sort(out)
	return out
}

// waitUntil polls cond until it holds, failing the test after a long
// while (a condition, not a duration, ends the wait).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSameFolderWaitEndsWithStop: stopping a session whose command waits
// for another session's command in the same folder ends the wait; its
// command is not run, and the other one finishes as it would have.
func TestSameFolderWaitEndsWithStop(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "alpha"}, ToolCalls: []fakellm.ToolCall{toolCall("a1", "run_bash",
			`{"command":"echo a1 > a.txt && while [ ! -e release.tmp ]; do sleep 0.02; done && echo a2 >> a.txt"}`)}},
		{When: &fakellm.When{LastUserContains: "beta"}, ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", `{"command":"echo b > b.txt"}`)}},
		{When: &fakellm.When{HasToolResult: true}, Text: "Done.", Repeat: true},
	}}, setup{files: map[string]string{".gitignore": "*.tmp\n"}})
	h.approveAll()
	ctx := context.Background()
	a := h.sess
	b, err := h.st.Sessions.Create(ctx, store.NewSession{ProjectID: a.ProjectID, Provider: a.Provider, Model: a.Model})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.m.Send(ctx, a.ID, "alpha", nil); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "A's command to start", func() bool { _, err := os.Stat(filepath.Join(h.dir, "a.txt")); return err == nil })
	if err := h.m.Send(ctx, b.ID, "beta", nil); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "B to wait", func() bool { return waitingFor(h, b.ID) != "" })
	h.m.Cancel(b.ID)
	if r := h.wait(); r != ReasonCancelled {
		t.Fatalf("B's turn ended with %s, want cancelled", r)
	}
	calls, err := h.st.ToolCalls.List(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Status != wire.ToolCancelled || !strings.HasPrefix(calls[0].Output, "Not run") {
		t.Errorf("B's call after the stop: %+v", calls)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "release.tmp"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := h.wait(); r != ReasonEndTurn {
		t.Fatalf("A's turn ended with %s", r)
	}
	if _, err := fileExists(h, "b.txt"); err == nil {
		t.Error("B's command ran although its turn was stopped while it waited")
	}
	if got := h.read("a.txt"); got != "a1\na2\n" {
		t.Errorf("a.txt %q", got)
	}
}
