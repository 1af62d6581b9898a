package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/sandbox"
	"pilot/backend/wire"
)

// noSandbox is a machine where the sandbox cannot start.
var noSandbox = Sandbox{Probe: func() sandbox.Status { return sandbox.Status{Why: unavailable} }}

// BenchmarkJobFlood runs `yes` as a background job for 3 s and reports
// what it costs Pilot: the heap after it (against before), the window's
// events per second and the bytes they carried per second.
func BenchmarkJobFlood(b *testing.B) {
	for range b.N {
		h := newHarness(b, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"yes","background":true}`)}},
			{Text: "Flooding."},
		}}, setup{mode: "all", opt: Options{Sandbox: noSandbox, BatchInterval: DefaultBatchInterval}})
		h.approveAll()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if r := h.turn("flood"); r != ReasonEndTurn {
			b.Fatalf("reason %s", r)
		}
		time.Sleep(3 * time.Second) // the measured span: a flood of fixed length
		runtime.GC()
		runtime.ReadMemStats(&after)
		js := h.m.Jobs(h.sess.ID)
		if err := h.m.StopJob(context.Background(), h.sess.ID, "1"); err != nil {
			b.Fatal(err)
		}
		events, carried := 0, 0
		for _, p := range h.rec.events(wire.AgentJobOutput) {
			events++
			carried += len(p.(wire.JobOutputPayload).Chunk)
		}
		// The test's recorder keeps every event it was sent: what Pilot
		// itself holds is the heap's growth less that.
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)-int64(carried))/(1<<20), "heap-MiB")
		b.ReportMetric(float64(js[0].Bytes)/(1<<20)/3, "job-MiB/s")
		b.ReportMetric(float64(events)/3, "events/s")
		b.ReportMetric(float64(carried)/(1<<20)/3, "sent-MiB/s")
	}
}

// BenchmarkJobScansPerChange is what a running job adds to each change
// the session makes: the scan that records the job's effects before it
// and the scan after it, on a copy of this repository's tracked files.
func BenchmarkJobScansPerChange(b *testing.B) {
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	if err != nil {
		b.Skip("not in a git checkout: ", err)
	}
	files := map[string]string{}
	for _, f := range strings.Fields(string(out)) {
		if data, err := os.ReadFile(filepath.Join("../..", f)); err == nil {
			files[f] = string(data)
		}
	}
	h := newHarness(b, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"sleep 600","background":true}`)}},
		{Text: "Started."},
	}}, setup{mode: "all", files: files, opt: Options{Sandbox: noSandbox}})
	h.approveAll()
	if r := h.turn("start"); r != ReasonEndTurn {
		b.Fatalf("reason %s", r)
	}
	l := h.m.loaded(h.sess.ID)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if err := os.WriteFile(filepath.Join(h.dir, "changed.txt"), []byte(strconv.Itoa(i)), 0o644); err != nil {
			b.Fatal(err)
		}
		l.jobs.sweepJobs(ctx)
		l.jobs.rebaseJobs(ctx)
	}
	b.StopTimer()
	b.ReportMetric(float64(len(files)), "files")
	if err := h.m.StopJob(ctx, h.sess.ID, "1"); err != nil {
		b.Fatal(err)
	}
}
