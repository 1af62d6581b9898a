package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

const killChildEnv = "PILOT_STORE_KILL_CHILD_DB"

// TestKillChild is the child of TestKillAtRandomPoints: with the database
// path in its environment it writes a long scripted session the way the
// agent loop does, printing "m ID" or "t ID" after each message or tool
// call is committed. It runs until it is killed.
func TestKillChild(t *testing.T) {
	path := os.Getenv(killChildEnv)
	if path == "" {
		t.Skip("only run as the child of TestKillAtRandomPoints")
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	_, x := newSession(t, s, "/killed/project")
	fmt.Println("ready")
	out := bufio.NewWriter(os.Stdout)
	commit := func(kind string, id int64, err error) {
		if err != nil {
			fmt.Fprintln(out, "error", err)
		} else {
			fmt.Fprintln(out, kind, id)
		}
		out.Flush()
	}
	for turn := 0; ; turn++ {
		if err := s.Sessions.SetState(ctx, x.ID, wire.SessionRunning); err != nil {
			commit("", 0, err)
		}
		m, err := s.Messages.Append(ctx, x.ID, user(fmt.Sprintf("turn %d: keep going", turn)), llm.Usage{})
		commit("m", m.ID, err)
		st, err := s.Messages.BeginStream(ctx, x.ID)
		if err != nil {
			commit("", 0, err)
			continue
		}
		var text strings.Builder
		for i := range rand.IntN(40) {
			fmt.Fprintf(&text, "token%d ", i)
			if err := st.Update(text.String()); err != nil {
				commit("", 0, err)
			}
			time.Sleep(time.Millisecond)
		}
		id := fmt.Sprintf("toolu_%d", turn)
		m, err = st.Finish([]llm.ContentBlock{llm.TextBlock(text.String() + "done"), toolUse(id, "run_bash", `{"command":"make"}`)}, llm.Usage{OutputTokens: 9})
		commit("m", m.ID, err)
		c, err := s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: m.ID, Call: Call{ToolUseID: id, Name: "run_bash", Input: json.RawMessage(`{"command":"make"}`)}})
		if err == nil {
			err = s.ToolCalls.Finish(ctx, c.ID, wire.ToolDone, strings.Repeat("build output ", rand.IntN(200)))
		}
		commit("t", c.ID, err)
		m, err = s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult(id, "ok")}}, llm.Usage{})
		commit("m", m.ID, err)
		if err := s.Sessions.SetState(ctx, x.ID, wire.SessionIdle); err != nil {
			commit("", 0, err)
		}
	}
}

// TestKillAtRandomPoints kills a writing child with SIGKILL at random
// moments, 20 times over the same database. After each kill the database
// must open, pass PRAGMA integrity_check and the FTS checks, hold every
// message and tool call the child reported committed, and every session
// must be valid to continue.
func TestKillAtRandomPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 20 processes")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pilot.db")
	committed := map[string][]int64{}
	ctx := context.Background()
	for run := range 20 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
		cmd.Env = append(os.Environ(), killChildEnv+"="+path)
		cmd.Stderr = os.Stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		if first := <-lines; first != "ready" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("run %d: child said %q", run, first)
		}
		kill := time.After(time.Duration(20+rand.IntN(300)) * time.Millisecond)
	read:
		for {
			select {
			case <-kill:
				cmd.Process.Kill() // SIGKILL
				break read
			case line, ok := <-lines:
				if !ok {
					break read
				}
				record(t, committed, line)
			}
		}
		for line := range lines { // lines written before the kill
			record(t, committed, line)
		}
		cmd.Wait()

		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", run, err)
		}
		if err := s.Sessions.RepairAll(ctx); err != nil { // as the service does after a crash
			t.Fatalf("run %d: repair: %v", run, err)
		}
		checkIntegrity(t, s)
		for kind, table := range map[string]string{"m": "messages", "t": "tool_calls"} {
			for _, id := range committed[kind] {
				var n int
				if err := s.r.QueryRow(`SELECT count(*) FROM `+table+` WHERE id = ?`, id).Scan(&n); err != nil || n != 1 {
					t.Errorf("run %d: committed %s %d lost (%v)", run, table, id, err)
				}
			}
		}
		checkContinuable(t, s)
		s.Close()
	}
	t.Logf("%d messages and %d tool calls committed across 20 kills", len(committed["m"]), len(committed["t"]))
}

func record(t *testing.T, committed map[string][]int64, line string) {
	var kind string
	var id int64
	if _, err := fmt.Sscan(line, &kind, &id); err != nil || (kind != "m" && kind != "t") {
		t.Errorf("child: %s", line)
		return
	}
	committed[kind] = append(committed[kind], id)
}

// checkContinuable: no message is left streaming and every tool_use has a
// tool_result in the message right after it.
func checkContinuable(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	ps := must[[]Project](t)(s.Projects.List(ctx))
	for _, p := range ps {
		for _, x := range must[[]Session](t)(s.Sessions.List(ctx, p.ID, 0, 0)) {
			if x.State == wire.SessionRunning {
				t.Errorf("session %d still running after reopen", x.ID)
			}
			ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
			for i, m := range ms {
				if m.State == wire.MessageStreaming {
					t.Errorf("message %d still streaming after reopen", m.ID)
				}
				for _, b := range m.Content {
					if b.Type != llm.BlockToolUse {
						continue
					}
					if i+1 == len(ms) || !hasResult(ms[i+1], b.ID) {
						t.Errorf("session %d: tool_use %s has no result", x.ID, b.ID)
					}
				}
			}
		}
	}
}

func hasResult(m Message, toolUseID string) bool {
	for _, b := range m.Content {
		if b.Type == llm.BlockToolResult && b.ToolUseID == toolUseID {
			return true
		}
	}
	return false
}
