package agent

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestSummaryAfterRestart: a session compacted before Pilot restarts sends
// the stored summary in place of the turns it stands for, without another
// compaction. The history is sized so that whole it passes the threshold
// of the window and summarised it fits: with the summary lost (the
// control case) the same turn compacts first.
func TestSummaryAfterRestart(t *testing.T) {
	t.Parallel()
	said := func(text string) func(fakellm.Request) bool {
		return func(r fakellm.Request) bool { return !isSummary(r) && strings.HasSuffix(r.LastUserText, text) }
	}
	// About 6,900 tokens each: three of them with the system prompt and
	// the tools (about 3,700) pass 80% of the window, one of them does
	// not, and one fits in the 30% a compaction keeps.
	answer := func(n string) string { return n + strings.Repeat(" long answer", 2300) }
	for _, format := range formats {
		for _, lost := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/summary lost %v", format, lost), func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
					{Text: answer("One"), Match: said("ask alpha")},
					{Text: answer("Two"), Match: said("ask bravo")},
					{Text: answer("Three"), Match: said("ask charlie")},
					{Text: "SUMMARY-XYZ", Match: isSummary},
					{Text: "SUMMARY-AGAIN", Match: isSummary},
					{Text: "Four.", Match: said("ask delta")},
				}}, setup{opt: Options{ContextWindow: 28000}})
				for _, m := range []string{"ask alpha", "ask bravo", "ask charlie"} {
					if r := h.turn(m); r != ReasonEndTurn {
						t.Fatalf("%s: %s", m, r)
					}
				}
				if err := h.m.CompactNow(context.Background(), h.sess.ID); err != nil {
					t.Fatal(err)
				}
				before := len(h.srv.Requests())
				if before != 4 {
					t.Fatalf("%d requests before the restart, want 3 turns and 1 summary", before)
				}
				if lost {
					forget(t, h)
				}
				h.restart()
				if r := h.turn("ask delta"); r != ReasonEndTurn {
					t.Fatalf("ask delta: %s %+v", r, h.rec.events(wire.AgentError))
				}
				after := h.srv.Requests()[before:]
				if lost {
					if len(after) != 2 || !isSummary(after[0]) {
						t.Fatalf("control: %d requests after the restart, want a compaction and the turn", len(after))
					}
					return
				}
				if len(after) != 1 || isSummary(after[0]) {
					t.Fatalf("%d requests after the restart (first a compaction: %v), want the turn only",
						len(after), len(after) > 0 && isSummary(after[0]))
				}
				body := fmt.Sprint(after[0].Body)
				for _, want := range []string{"SUMMARY-XYZ", "ask alpha", "ask charlie", "Three long answer", "ask delta"} {
					if !strings.Contains(body, want) {
						t.Errorf("request after the restart lacks %q", want)
					}
				}
				for _, gone := range []string{"One long answer", "ask bravo", "Two long answer"} {
					if strings.Contains(body, gone) {
						t.Errorf("request after the restart holds the compacted %q", gone)
					}
				}
			})
		}
	}
}

// forget deletes the session's stored summary, as if it had been made
// before summaries were stored.
func forget(t *testing.T, h *harness) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+h.path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if res, err := db.Exec(`DELETE FROM session_summaries WHERE session_id = ?`, h.sess.ID); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%d summaries stored, want 1", n)
	}
}
