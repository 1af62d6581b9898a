package agent

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"pilot/backend/memory"
	"pilot/backend/wire"
)

type sink struct {
	mu  sync.Mutex
	got []recorded
}

func (s *sink) Emit(name string, p any) {
	s.mu.Lock()
	s.got = append(s.got, recorded{name, p})
	s.mu.Unlock()
}

func (s *sink) list() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.got...)
}

func TestOutboxCoalescesAndOrders(t *testing.T) {
	t.Parallel()
	s := &sink{}
	o := newOutbox(s, time.Hour) // only terminal events and flush() deliver
	for i := 0; i < 100; i++ {
		o.text(1, 7, "a", "")
		o.text(2, 9, "b", "")
	}
	o.output(1, "tool", "x")
	o.output(1, "tool", "y")
	o.send(1, wire.AgentTurnDone, func(q wire.Seq) any { return wire.TurnDonePayload{Seq: q, Reason: "end_turn"} })
	got := s.list()
	if len(got) != 3 {
		t.Fatalf("%d events: %+v", len(got), got)
	}
	st := got[0].payload.(wire.StreamPayload)
	out := got[1].payload.(wire.ToolOutputPayload)
	done := got[2].payload.(wire.TurnDonePayload)
	if st.Text != strings.Repeat("a", 100) || st.MessageID != 7 || st.Seq.Seq != 1 || st.SessionID != 1 {
		t.Errorf("stream %+v", st)
	}
	if out.Chunk != "xy" || out.Seq.Seq != 2 || done.Seq.Seq != 3 {
		t.Errorf("output %+v done %+v", out, done)
	}
	o.flush()
	if got = s.list(); len(got) != 4 || got[3].payload.(wire.StreamPayload).Seq != (wire.Seq{SessionID: 2, Seq: 1}) {
		t.Errorf("session 2: %+v", got[3:])
	}
}

func TestOutboxTimerFlushesAndNewMessageSplits(t *testing.T) {
	t.Parallel()
	s := &sink{}
	o := newOutbox(s, 5*time.Millisecond)
	o.text(1, 1, "one", "")
	o.text(1, 2, "two", "")
	deadline := time.Now().Add(2 * time.Second)
	for len(s.list()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := s.list()
	if len(got) != 2 || got[0].payload.(wire.StreamPayload).Text != "one" || got[1].payload.(wire.StreamPayload).MessageID != 2 {
		t.Errorf("%+v", got)
	}
}

func TestSystemPrompt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"AGENTS.md": "Use tabs.", "CLAUDE.md": "Be brief.", "progress.md": "Step 3 of 5."} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "init", "-q", "-b", "trunk")
	git.Dir = dir
	hasGit := git.Run() == nil
	p, _ := SystemPrompt(t.Context(), memory.Load("", dir), dir, time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC), nil)
	for _, want := range []string{dir, "Tuesday 4 March 2025", "RE2", "Explore before editing", "minimal, targeted edits",
		"# AGENTS.md", "Use tabs.", "# CLAUDE.md", "Be brief.", "# progress.md", "Step 3 of 5.", "`patch_file`", "`run_bash`",
		"`todo_write`: the task list the user watches. Use it for multi-step work", "Not for a one-line answer"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if hasGit && !strings.Contains(p, "## No commits yet on trunk") {
		t.Errorf("no git status in:\n%s", p)
	}
	bareDir := t.TempDir()
	bare, _ := SystemPrompt(t.Context(), memory.Load("", bareDir), bareDir, time.Now(), nil)
	if strings.Contains(bare, "project's own instructions") || strings.Contains(bare, "Git status") {
		t.Errorf("bare project prompt has extras")
	}
}

func TestOutboxSnapshotCarriesInflightWork(t *testing.T) {
	t.Parallel()
	s := &sink{}
	o := newOutbox(s, time.Hour)
	o.text(1, 7, "Hel", "")
	o.flush()
	o.text(1, 7, "lo", "hmm") // still pending when the snapshot starts
	o.output(1, "call-1", "line 1\n")
	o.text(2, 9, "other session", "")

	var emittedDuringRead int
	sent := make(chan struct{})
	lv, err := o.snapshot(1, func() error {
		emittedDuringRead = len(s.list())
		go func() {
			o.send(1, wire.AgentState, func(q wire.Seq) any { return wire.StatePayload{Seq: q, State: "idle"} })
			close(sent)
		}()
		time.Sleep(20 * time.Millisecond) // the send above must wait for the snapshot
		if n := len(s.list()); n != emittedDuringRead {
			t.Errorf("%d events emitted while the snapshot was read", n-emittedDuringRead)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Live{Seq: 3, MessageID: 7, Text: "Hello", Thinking: "hmm", Output: map[string]string{"call-1": "line 1\n"}}
	if lv.Seq != want.Seq || lv.MessageID != want.MessageID || lv.Text != want.Text || lv.Thinking != want.Thinking || lv.Output["call-1"] != want.Output["call-1"] {
		t.Fatalf("snapshot %+v, want %+v", lv, want)
	}

	<-sent
	// Once the message and the call are committed, nothing is in flight.
	o.send(1, wire.AgentMessage, func(q wire.Seq) any { return wire.MessagePayload{Seq: q, Message: wire.Message{ID: 7}} })
	o.send(1, wire.AgentTool, func(q wire.Seq) any {
		return wire.ToolPayload{Seq: q, Call: wire.ToolCall{ID: "call-1", Status: "done"}}
	})
	lv, _ = o.snapshot(1, func() error { return nil })
	if lv.MessageID != 0 || lv.Text != "" || len(lv.Output) != 0 || lv.Seq != 6 {
		t.Fatalf("after commit: %+v", lv)
	}
}

// A job's output cut inside a character reaches the window whole: the
// cut bytes wait for the rest (or for the session's next terminal
// event), so no event carries half a character and the offsets still
// add up to the bytes written.
func TestOutboxJobOutputKeepsCharactersWhole(t *testing.T) {
	t.Parallel()
	s := &sink{}
	o := newOutbox(s, time.Hour)
	euro := []byte("€") // 3 bytes
	o.jobOutput(1, "1", 0, append([]byte("price: "), euro[:1]...))
	o.flush()
	o.jobOutput(1, "1", 8, euro[1:2])
	o.flush()
	o.jobOutput(1, "1", 9, append(euro[2:], []byte(" and ")...))
	o.flush()
	o.jobOutput(1, "1", 15, []byte("£")[:1]) // the job's last byte: the start of a character
	o.send(1, wire.AgentJob, func(q wire.Seq) any { return wire.JobPayload{Seq: q} })
	var text []byte
	var next int64
	var chunks []string
	for _, r := range s.list() {
		p, ok := r.payload.(wire.JobOutputPayload)
		if !ok {
			continue
		}
		if p.Offset != next {
			t.Fatalf("chunk at %d, want %d: %+v", p.Offset, next, chunks)
		}
		chunks = append(chunks, p.Chunk)
		text = append(text, p.Chunk...)
		next = p.Offset + int64(len(p.Chunk))
	}
	want := "price: € and " + string([]byte("£")[:1])
	if string(text) != want {
		t.Fatalf("got %q, want %q (chunks %q)", text, want, chunks)
	}
	for _, c := range chunks[:len(chunks)-1] {
		if !utf8.ValidString(c) {
			t.Errorf("a chunk carries half a character: %q (all %q)", c, chunks)
		}
	}
}
