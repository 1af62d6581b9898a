package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/lsp"
)

// timedDiag is a real lsp.Manager with each AfterChange timed: the wait
// of the turn for its diagnostics, and the server's own part of it.
type timedDiag struct {
	*lsp.Manager
	mu         sync.Mutex
	total, own []time.Duration
	last       lsp.Outcome
}

func (d *timedDiag) AfterChange(ctx context.Context, root string, paths []string) lsp.Outcome {
	start := time.Now()
	o := d.Manager.AfterChange(ctx, root, paths)
	d.mu.Lock()
	d.total, d.own, d.last = append(d.total, time.Since(start)), append(d.own, o.ServerTime), o
	d.mu.Unlock()
	return o
}

// BenchmarkDiagnosticsInTurnGopls: the time from an applied change to its
// diagnostics in the tool result, through a turn, with a warm gopls on a
// copy of this repository's Go code: a scripted model patches a file of
// backend/tools (which the agent, the service and both faces import),
// alternating two versions; the median of 20 changes, and the server's
// own part apart. Run it calm:
//
//	go test -tags webkit2_41,sqlite_fts5 -run '^$' -bench DiagnosticsInTurnGopls -benchtime 1x ./backend/agent/
func BenchmarkDiagnosticsInTurnGopls(b *testing.B) {
	if _, err := exec.LookPath("gopls"); err != nil {
		b.Skip("gopls is not on PATH (make deps installs it)")
	}
	const file = "backend/tools/bench_diag.go"
	d := &timedDiag{Manager: lsp.New(lsp.Options{Wait: 2 * time.Minute})}
	b.Cleanup(d.Close)
	h := newHarness(b, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("", "patch_file", `{"path":"`+file+`","old_text":"return 1","new_text":"return 2"}`)}, Repeat: true, When: &fakellm.When{LastUserContains: "to two"}},
		{ToolCalls: []fakellm.ToolCall{toolCall("", "patch_file", `{"path":"`+file+`","old_text":"return 2","new_text":"return 1"}`)}, Repeat: true, When: &fakellm.When{LastUserContains: "to one"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}}, setup{mode: "all", diag: d})
	archive := exec.Command("sh", "-c", `git archive HEAD go.mod go.sum backend | tar -x -C "$0"`, h.dir)
	archive.Dir = "../.."
	if out, err := archive.CombinedOutput(); err != nil {
		b.Fatalf("copying the repository: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(h.dir, file), []byte("package tools\n\nfunc benchDiag() int { return 1 }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	turn := func(i int) lsp.Outcome {
		text := "to two"
		if i%2 == 1 {
			text = "to one"
		}
		if r := h.turn(text); r != ReasonEndTurn {
			b.Fatalf("change %d: reason %s", i, r)
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.last
	}
	// Warm: gopls has loaded the workspace (outside a turn: that takes
	// longer than the harness waits for one) and checked the file.
	if o := d.Manager.AfterChange(b.Context(), h.dir, []string{file}); len(o.TimedOut)+len(o.Failed) != 0 || !slices.Contains(o.Checked, file) {
		b.Fatalf("warming up: %+v", o)
	}
	if o := turn(0); len(o.TimedOut)+len(o.Failed) != 0 || !slices.Contains(o.Checked, file) {
		b.Fatalf("the first change: %+v", o)
	}
	d.mu.Lock()
	d.total, d.own = nil, nil
	d.mu.Unlock()
	for i := 1; i <= 20; i++ {
		if o := turn(i); len(o.TimedOut)+len(o.Failed) != 0 || len(o.Diagnostics) != 0 {
			b.Fatalf("change %d: %+v", i, o)
		}
	}
	if res := h.srv.Requests(); !strings.Contains(res[len(res)-1].ToolResults[0].Content, "No errors or warnings in the changed files.") {
		b.Fatalf("the last result: %s", res[len(res)-1].ToolResults[0].Content)
	}
	med := func(ds []time.Duration) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[len(s)/2].Microseconds()) / 1000
	}
	b.ReportMetric(med(d.total), "median-ms")
	b.ReportMetric(med(d.own), "server-ms")
}
