package tools

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/proctest"
)

// startJob starts command as a background job on the host.
func startJob(t *testing.T, command string) (*Job, func() string) {
	t.Helper()
	f := newFixture(t, nil)
	var mu sync.Mutex
	var out strings.Builder
	p := &Proposal{Tool: "run_bash", Command: &Command{Command: command, Dir: f.dir, Background: true}}
	j, err := f.reg.StartJob(context.Background(), p, nil, func(b []byte) {
		mu.Lock()
		out.Write(b)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	return j, func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
}

// TestJobStop: a job that ignores SIGTERM is killed after the grace and
// reports 128+9; one that ends on SIGTERM reports 143 and was not killed;
// either way no process of its group is left.
func TestJobStop(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, trap string
		killed     bool
		code       int
	}{
		{"ends on SIGTERM", "", false, 143},
		{"ignores SIGTERM", "trap '' TERM; ", true, 137},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			mark := "tools-job-" + strconv.Itoa(os.Getpid()) + "-" + strings.ReplaceAll(c.name, " ", "-")
			// The mark is on the background child's command line too
			// (a subshell), so a child left behind is seen.
			j, out := startJob(t, c.trap+"(sleep 300; : "+mark+") & echo ready; sleep 301; : "+mark)
			for !strings.Contains(out(), "ready") { // the trap is set
				select {
				case <-j.Done():
					t.Fatalf("the job ended before it was ready: %q", out())
				case <-time.After(5 * time.Millisecond):
				}
			}
			killed := j.Stop(context.Background(), 200*time.Millisecond)
			code, err := j.Exit()
			if killed != c.killed || code != c.code || err != nil {
				t.Errorf("Stop: killed %v, exit %d (%v); want killed %v, exit %d", killed, code, err, c.killed, c.code)
			}
			if len(proctest.WithCmdline(mark)) > 0 {
				t.Error("a process of the stopped job is left")
			}
		})
	}
}

// TestJobEndKillsItsGroup: when a job's shell exits, what it left in its
// group is killed, its output was all passed on, and Stop after that
// changes nothing.
func TestJobEndKillsItsGroup(t *testing.T) {
	t.Parallel()
	mark := "tools-job-left-" + strconv.Itoa(os.Getpid())
	j, out := startJob(t, "(sleep 300; : "+mark+") & echo bye; exit 3")
	<-j.Done()
	if code, _ := j.Exit(); code != 3 || out() != "bye\n" {
		t.Errorf("exit %d, output %q", code, out())
	}
	if len(proctest.WithCmdline(mark)) > 0 {
		t.Error("the process the job left in its group is still running")
	}
	if j.Stop(context.Background(), time.Second) {
		t.Error("Stop of an ended job killed something")
	}
}
