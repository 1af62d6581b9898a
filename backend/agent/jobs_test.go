package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/proctest"
	"pilot/backend/sandbox"
	"pilot/backend/wire"
)

var markers atomic.Int64

// marker is a word no other process's command line holds.
func marker(t *testing.T) string {
	return fmt.Sprintf("pilot-job-%d-%d-%d", os.Getpid(), markers.Add(1), time.Now().UnixNano())
}

// eventually waits until cond holds, failing after 20 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20 s", what)
		}
		time.Sleep(10 * time.Millisecond) // polling the condition, not waiting for time
	}
}

// jobBoxes are the ways a job runs: on the host (the sandbox cannot
// start: the user approves it to run with their rights) and in the
// session's pod when the machine has one.
func jobBoxes(t *testing.T) map[string]Sandbox {
	out := map[string]Sandbox{"host": (&fakeBox{}).options(t, false)}
	if sandbox.Probe().Ready {
		out["sandbox"] = (&fakeBox{}).options(t, true)
	} else if os.Getenv("CI") == "true" {
		t.Fatal("the sandbox cannot start on this CI machine: " + sandbox.Probe().Why)
	}
	return out
}

// TestBackgroundJob: run_bash background: true returns at once with the
// job id and its first output; job_output gives what came since the
// model's last read while it runs; job_stop ends its whole process group
// and no process of it is left; the window was told (agent:job,
// agent:job_output, the card's job id).
func TestBackgroundJob(t *testing.T) {
	t.Parallel()
	for name, box := range jobBoxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mark := marker(t)
			cmd := fmt.Sprintf(`echo started; (sleep 300; : %s) & while true; do echo tick; sleep 0.05; done # %s`, mark, mark)
			h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", fmt.Sprintf(`{"command":%q,"background":true}`, cmd))}},
				{ToolCalls: []fakellm.ToolCall{toolCall("c2", "job_output", `{"job_id":"1","wait_seconds":10}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("c3", "job_stop", `{"job_id":"1"}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("c4", "job_output", `{"job_id":"1"}`), toolCall("c5", "job_output", `{"job_id":"7"}`)}},
				{Text: "Done."},
			}}, setup{mode: "edits", opt: Options{Sandbox: box}})
			h.approveAll()
			if r := h.turn("serve"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			start := h.results(1)[0].Content
			if !strings.Contains(start, "Started background job 1") || !strings.Contains(start, "started") || !strings.Contains(start, "Job 1 is running") {
				t.Errorf("run_bash result:\n%s", start)
			}
			asked := h.rec.events(wire.AgentApproval)
			if (name == "host") != (len(asked) == 1) { // without the sandbox, edits mode asks
				t.Errorf("%d questions", len(asked))
			}
			for _, p := range asked {
				if a := p.(wire.ApprovalPayload).Approval; !a.Background || a.TimeoutSeconds != 0 {
					t.Errorf("the question does not say it starts a job: %+v", a)
				}
			}
			if card := lastCard(h, "c1"); card.JobID != "1" || card.Status != wire.ToolDone {
				t.Errorf("the starting call's card: job %q status %s", card.JobID, card.Status)
			}
			read := h.results(2)[0].Content
			if !strings.Contains(read, "tick") || strings.Contains(read, "started") || !strings.Contains(read, "is running") {
				t.Errorf("job_output gave (want ticks since the last read, not the first line again):\n%s", read)
			}
			stop := h.results(3)[0].Content
			if !strings.Contains(stop, "Stopped job 1") || !strings.Contains(stop, "was stopped (exit code 143)") {
				t.Errorf("job_stop gave:\n%s", stop)
			}
			after := h.results(4)
			if !strings.Contains(after[0].Content, "was stopped") || !strings.Contains(after[0].Content, "No new output") {
				t.Errorf("job_output after the stop:\n%s", after[0].Content)
			}
			if !after[1].IsError || !strings.Contains(after[1].Content, `no background job "7"`) || !strings.Contains(after[1].Content, "its jobs are 1") {
				t.Errorf("job_output of an unknown job: %+v", after[1])
			}
			if left := proctest.WithCmdline(mark); len(left) > 0 {
				t.Errorf("processes of the stopped job are left: %v", left)
			}
			jobs := h.m.Jobs(h.sess.ID)
			if len(jobs) != 1 || jobs[0].State != wire.JobStopped || jobs[0].ExitCode == nil || *jobs[0].ExitCode != 143 || jobs[0].ToolCallID != "c1" || jobs[0].Sandboxed != (name == "sandbox") {
				t.Errorf("jobs %+v", jobs)
			}
			var states []wire.JobState
			for _, p := range h.rec.events(wire.AgentJob) {
				states = append(states, p.(wire.JobPayload).Job.State)
			}
			if len(states) != 2 || states[0] != wire.JobRunning || states[1] != wire.JobStopped {
				t.Errorf("agent:job states %v", states)
			}
			var got strings.Builder
			next := int64(0)
			for _, p := range h.rec.events(wire.AgentJobOutput) {
				o := p.(wire.JobOutputPayload)
				if o.JobID != "1" || o.Offset != next {
					t.Fatalf("output event at offset %d, want %d (job %q)", o.Offset, next, o.JobID)
				}
				next += int64(len(o.Chunk))
				got.WriteString(o.Chunk)
			}
			held, err := h.m.JobOutput(h.sess.ID, "1")
			if err != nil || held.Text != got.String() || held.Cut || held.Start != 0 {
				t.Errorf("JobOutput %q (err %v) differs from the streamed %q", held.Text, err, got.String())
			}
		})
	}
}

// TestJobsPerSession: a session runs at most the setting's number of jobs;
// one more is refused with a sentence naming the running ones, and
// releasing the session stops them and forgets them.
func TestJobsPerSession(t *testing.T) {
	t.Parallel()
	mark := marker(t)
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"sleep 300; : `+mark+`","background":true}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("c2", "run_bash", `{"command":"sleep 301","background":true}`)}},
		{Text: "Done."},
	}}, setup{mode: "edits", opt: Options{Sandbox: (&fakeBox{}).options(t, false), JobsPerSession: func() int { return 1 }}})
	h.approveAll()
	if r := h.turn("two servers"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(2)[0]
	if !res.IsError || !strings.Contains(res.Content, "already runs 1 background job") || !strings.Contains(res.Content, "job 1 (sleep 300") || !strings.Contains(res.Content, "job_stop") {
		t.Errorf("the second job: %+v", res)
	}
	if len(proctest.WithCmdline(mark)) == 0 {
		t.Fatal("the first job is not running")
	}
	if run := h.m.RunningJobs(); len(run) != 1 || run[0].ID != "1" {
		t.Errorf("running jobs %+v", run)
	}
	h.m.Release(h.sess.ID)
	if left := proctest.WithCmdline(mark); len(left) > 0 {
		t.Errorf("the released session's job is left: %v", left)
	}
	if jobs := h.m.Jobs(h.sess.ID); len(jobs) != 0 {
		t.Errorf("a released session still lists jobs: %+v", jobs)
	}
}

// TestJobsStopWhenManagerCloses: quitting stops every session's jobs.
func TestJobsStopWhenManagerCloses(t *testing.T) {
	t.Parallel()
	mark := marker(t)
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"trap '' TERM; sleep 300; : `+mark+`","background":true}`)}},
		{Text: "Started."},
	}}, setup{mode: "edits", opt: Options{Sandbox: (&fakeBox{}).options(t, false)}})
	h.approveAll()
	if r := h.turn("serve"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if len(proctest.WithCmdline(mark)) == 0 {
		t.Fatal("the job is not running after the turn")
	}
	h.m.Close() // the job ignores SIGTERM: it is killed after the grace
	if left := proctest.WithCmdline(mark); len(left) > 0 {
		t.Errorf("a job outlived the Manager: %v", left)
	}
}

// TestJobLedger: what a job changes is recorded as its own (attributed
// to the call that started it) before the session's next change, and the
// model's own changes made while the job runs are not counted as the
// job's.
func TestJobLedger(t *testing.T) {
	t.Parallel()
	cmd := `echo started; while [ ! -e go ]; do sleep 0.05; done; echo job > by-job.tmp && mv by-job.tmp by-job.txt; sleep 300`
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", fmt.Sprintf(`{"command":%q,"background":true}`, cmd))}},
		{ToolCalls: []fakellm.ToolCall{toolCall("c2", "write_file", `{"path":"by-model.txt","content":"model\n"}`)}},
		{Text: "Started."},
		{ToolCalls: []fakellm.ToolCall{toolCall("c3", "write_file", `{"path":"by-model-2.txt","content":"model\n"}`)}},
		{Text: "Done."},
	}}, setup{mode: "edits", opt: Options{Sandbox: (&fakeBox{}).options(t, false)}})
	h.approveAll()
	if r := h.turn("work"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the job writing by-job.txt", func() bool { _, err := fileExists(h, "by-job.txt"); return err == nil }) // whole: renamed in
	if r := h.turn("more"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	cps, err := h.st.Checkpoints.List(t.Context(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]string{}
	for _, cp := range cps {
		for _, f := range cp.Files {
			if prev, ok := byFile[f.Path]; ok {
				t.Errorf("%s is recorded twice: by %q and %q", f.Path, prev, cp.Label)
			}
			byFile[f.Path] = cp.Label + " @" + cp.ToolUseID
		}
	}
	if got := byFile["by-job.txt"]; !strings.Contains(got, "(background job 1)") || !strings.HasSuffix(got, "@c1") {
		t.Errorf("by-job.txt recorded as %q, want the job's, on call c1 (all: %v)", got, byFile)
	}
	for _, f := range []string{"by-model.txt", "by-model-2.txt"} {
		if got := byFile[f]; got == "" || strings.Contains(got, "background job") {
			t.Errorf("%s recorded as %q, want the model's write (all: %v)", f, got, byFile)
		}
	}
	if err := h.m.StopJob(context.Background(), h.sess.ID, "1"); err != nil {
		t.Fatal(err)
	}
}

// TestJobFlood: a job that writes as fast as it can keeps Pilot's memory
// bounded: the job holds the last JobOutputCap bytes with the cut marked,
// the model is given at most maxJobRead bytes, and the window gets at
// most maxJobChunk bytes per job and flush, in order by offset.
func TestJobFlood(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"yes","background":true}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("c2", "job_output", `{"job_id":"1"}`)}},
		{Text: "Flooding."},
	}}, setup{mode: "edits", opt: Options{Sandbox: (&fakeBox{}).options(t, false)}})
	h.approveAll()
	if r := h.turn("flood"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	eventually(t, "the job writing 8 MiB", func() bool {
		js := h.m.Jobs(h.sess.ID)
		return len(js) == 1 && js[0].Bytes > 8<<20
	})
	held, err := h.m.JobOutput(h.sess.ID, "1")
	if err != nil {
		t.Fatal(err)
	}
	if len(held.Text) != JobOutputCap || !held.Cut || held.Start < 7<<20 {
		t.Errorf("held %d bytes from %d (cut %v), want the last %d", len(held.Text), held.Start, held.Cut, JobOutputCap)
	}
	if err := h.m.StopJob(context.Background(), h.sess.ID, "1"); err != nil {
		t.Fatal(err)
	}
	read := h.results(2)[0].Content
	if len(read) > maxJobRead+200 || !strings.Contains(read, "bytes dropped") {
		t.Errorf("job_output gave %d bytes, want at most %d with the cut marked", len(read), maxJobRead)
	}
	var prev int64 = -1
	for _, p := range h.rec.events(wire.AgentJobOutput) {
		o := p.(wire.JobOutputPayload)
		if len(o.Chunk) > maxJobChunk || o.Offset <= prev {
			t.Fatalf("an output event of %d bytes at offset %d (after %d)", len(o.Chunk), o.Offset, prev)
		}
		prev = o.Offset
	}
}

func TestRing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		writes  []string
		off     int64
		want    string
		start   int64
		dropped int64
	}{
		{"empty", nil, 0, "", 0, 0},
		{"under the cap", []string{"ab", "cd"}, 1, "bcd", 1, 0},
		{"wrapped", []string{"abcd", "ef", "g"}, 0, "defg", 3, 3},
		{"wrapped, read inside", []string{"abcd", "ef", "g"}, 5, "fg", 5, 0},
		{"wrapped twice", []string{"abc", "def", "ghi", "j"}, 7, "hij", 7, 0},
		{"one write over the cap", []string{"abcdefgh"}, 2, "efgh", 4, 2},
		{"read at the end", []string{"abcdef"}, 6, "", 6, 0},
		{"read past the end", []string{"ab"}, 9, "", 2, 0},
	}
	for _, c := range cases {
		r := newRing(4)
		for _, w := range c.writes {
			r.write([]byte(w))
		}
		text, start, dropped := r.since(c.off)
		if string(text) != c.want || start != c.start || dropped != c.dropped {
			t.Errorf("%s: since(%d) = %q from %d, %d dropped; want %q from %d, %d dropped", c.name, c.off, text, start, dropped, c.want, c.start, c.dropped)
		}
	}
}

func FuzzRing(f *testing.F) {
	f.Add([]byte("hello world, a long line"), uint8(5), uint8(3), int64(2))
	f.Fuzz(func(t *testing.T, data []byte, size, chunk uint8, off int64) {
		capacity := int(size%16) + 1
		step := int(chunk%7) + 1
		r := newRing(capacity)
		for i := 0; i < len(data); i += step {
			r.write(data[i:min(i+step, len(data))])
		}
		text, start, dropped := r.since(off)
		keep := data[max(0, len(data)-capacity):]
		from := min(max(off, 0), int64(len(data)))
		first := int64(len(data) - len(keep))
		wantStart := max(from, first)
		if start != wantStart || dropped != wantStart-from || !bytes.Equal(text, data[wantStart:]) {
			t.Fatalf("since(%d) = %q from %d (%d dropped); want %q from %d", off, text, start, dropped, data[wantStart:], wantStart)
		}
	})
}

// TestJobToolsNeverAsk: job_output and job_stop touch only the session's
// own jobs, so no mode asks about them or refuses them (plan mode
// included).
func TestJobToolsNeverAsk(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"ask", "plan", "edits", "none"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("o", "job_output", `{"job_id":"1","wait_seconds":1}`), toolCall("s", "job_stop", `{"job_id":"1"}`)}},
				{Text: "None."},
			}}, setup{mode: mode})
			h.approveWith(func(a wire.Approval) { t.Errorf("asked about %s", a.Tool) })
			if r := h.turn("check"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			for _, res := range h.results(1) {
				if !strings.Contains(res.Content, `There is no background job "1": this session has started none`) {
					t.Errorf("%s: %s", res.ToolUseID, res.Content)
				}
			}
		})
	}
}
