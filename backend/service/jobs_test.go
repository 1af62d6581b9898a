package service

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/proctest"
	"pilot/backend/wire"
)

// TestJobsThroughTheService: the window's face of background jobs: a job
// the model started is listed with its held output, named by the quit
// question while it runs, stopped by StopJob; an unknown job is a
// sentence; deleting a session and closing the service stop its jobs; the
// limit is a validated setting.
func TestJobsThroughTheService(t *testing.T) {
	t.Parallel()
	mark := fmt.Sprintf("svc-job-%d", os.Getpid())
	job := func(n int) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"command": fmt.Sprintf("echo ready; sleep 300; : %s-%d", mark, n), "background": true, "sandbox": false, "reason": "a test job"})
		return b
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "one"}, ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: job(1)}}},
		{When: &fakellm.When{LastUserContains: "two"}, ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: job(2)}}},
		{When: &fakellm.When{LastUserContains: "three"}, ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: job(3)}}},
		{When: &fakellm.When{HasToolResult: true}, Text: "Started.", Repeat: true},
	}})
	t.Cleanup(srv.Close)
	home := t.TempDir()
	w := openAt(t, home, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := func(text string) wire.SessionSummary {
		s, _ := w.Sessions.New(ctx, p.ID)
		if err := w.core.agent.SetApprovalMode(ctx, s.ID, "all"); err != nil {
			t.Fatal(err)
		}
		if err := w.Turns.SendMessage(ctx, s.ID, text, nil); err != nil {
			t.Fatal(err)
		}
		ev.wait(t, func(e any) bool { // this turn's end (a session of a deleted one's id sees that one's too)
			d, ok := e.(wire.TurnDonePayload)
			return ok && d.SessionID == s.ID && len(w.core.agent.Jobs(s.ID)) > 0
		})
		return s
	}

	one := start("start one")
	jobs, _ := w.Jobs.List(one.ID)
	if len(jobs) != 1 || jobs[0].ID != "1" || jobs[0].State != wire.JobRunning || jobs[0].Sandboxed {
		t.Fatalf("ListJobs %+v", jobs)
	}
	d, err := w.Sessions.Get(ctx, one.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.ToolCalls) != 1 || d.ToolCalls[0].JobID != "1" {
		t.Errorf("the reloaded card of the starting call does not name its job: %+v", d.ToolCalls)
	}
	if out, err := w.Jobs.Output(one.ID, "1"); err != nil || out.Text != "ready\n" || out.Job.ID != "1" {
		t.Errorf("JobOutput %+v %v", out, err)
	}
	if _, err := w.Jobs.Output(one.ID, "9"); err == nil || !strings.Contains(err.Error(), `no background job "9"`) {
		t.Errorf("JobOutput of an unknown job: %v", err)
	}
	if got := w.Turns.InFlight(ctx); len(got.Sessions) != 0 || len(got.Jobs) != 1 || !strings.HasPrefix(got.Jobs[0], "echo ready; sleep 300") || !strings.Contains(got.Jobs[0], "(session “") {
		t.Errorf("the quit question's work: %+v", got)
	}
	if err := w.Jobs.Stop(one.ID, "1"); err != nil {
		t.Fatal(err)
	}
	if jobs, _ := w.Jobs.List(one.ID); len(jobs) != 1 || jobs[0].State != wire.JobStopped || (len(proctest.WithCmdline(mark+"-1")) > 0) {
		t.Errorf("after StopJob: %+v (process left: %v)", jobs, (len(proctest.WithCmdline(mark+"-1")) > 0))
	}
	if got := w.Turns.InFlight(ctx); len(got.Jobs) != 0 {
		t.Errorf("a stopped job is still named: %+v", got.Jobs)
	}

	two := start("start two")
	if !(len(proctest.WithCmdline(mark+"-2")) > 0) {
		t.Fatal("job 2 is not running")
	}
	if err := w.Sessions.Delete(ctx, two.ID); err != nil {
		t.Fatal(err)
	}
	if len(proctest.WithCmdline(mark+"-2")) > 0 {
		t.Error("the deleted session's job is left")
	}

	start("start three")
	if !(len(proctest.WithCmdline(mark+"-3")) > 0) {
		t.Fatal("job 3 is not running")
	}
	w.Close()
	if len(proctest.WithCmdline(mark+"-3")) > 0 {
		t.Error("a job outlived the service")
	}
}

func TestJobsPerSessionSetting(t *testing.T) {
	t.Parallel()
	w := openAt(t, t.TempDir(), map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"})
	t.Cleanup(w.Close)
	v, err := w.Settings.Get()
	if err != nil {
		t.Fatal(err)
	}
	if v.JobsPerSession != 3 || w.Jobs.perSession() != 3 {
		t.Errorf("default %d (in force %d), want 3", v.JobsPerSession, w.Jobs.perSession())
	}
	in := wire.SettingsInput{Provider: v.Provider, ApprovalMode: v.ApprovalMode}
	for _, bad := range []int{-1, 21} {
		in.JobsPerSession = bad
		if _, err := w.Settings.Save(in); err == nil || !strings.Contains(err.Error(), "background jobs per session must be 1 to 20") {
			t.Errorf("%d: %v", bad, err)
		}
	}
	in.JobsPerSession = 5
	if v, err := w.Settings.Save(in); err != nil || v.JobsPerSession != 5 || w.Jobs.perSession() != 5 {
		t.Errorf("saved 5: %+v %v (in force %d)", v.JobsPerSession, err, w.Jobs.perSession())
	}
	in.JobsPerSession = 0 // a form without the field keeps it
	if v, err := w.Settings.Save(in); err != nil || v.JobsPerSession != 5 {
		t.Errorf("kept: %d %v", v.JobsPerSession, err)
	}
}
