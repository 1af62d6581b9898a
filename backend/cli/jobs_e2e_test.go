package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/proctest"
	"pilot/backend/sandbox"
	"pilot/backend/wire"
)

// needJobTools skips (fails under CI) where the acceptance of background
// jobs cannot run: no sandbox, no python3 or curl.
func needJobTools(t *testing.T) {
	t.Helper()
	why := ""
	if st := sandbox.Probe(); !st.Ready {
		why = "the sandbox cannot start here: " + st.Why
	}
	for _, p := range []string{"python3", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			why = p + " is not installed"
		}
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func jobCall(id, name string, in map[string]any) fakellm.ToolCall {
	b, _ := json.Marshal(in)
	return fakellm.ToolCall{ID: id, Name: name, Input: b}
}

// serverCommand starts Python's web server on a free port of the pod's
// loopback, its log also in server.log (which the ledger records as the
// job's). "$PWD" puts the project's unique path on the server's and tee's
// command lines, so the test finds every process of the job in /proc.
const serverCommand = `python3 -m http.server 0 --bind 127.0.0.1 --directory "$PWD" 2>&1 | tee "$PWD/server.log"`

// TestHeadlessBackgroundServer is the acceptance of background jobs with
// the real binary and the real sandbox: run_bash background: true starts
// a web server and returns a job id; job_output shows its start line and
// then its request log; a second run_bash reaches it with curl inside the
// same sandbox network (the port parsed from its output); job_stop ends it
// and no process of it is left; the ledger records the file it created as
// the job's.
func TestHeadlessBackgroundServer(t *testing.T) {
	t.Parallel()
	needJobTools(t)
	dir := tempProject(t, map[string]string{"index.html": "<p>served by the job</p>\n"})
	curl := `port=$(grep -o 'port [0-9]*' server.log | head -1 | cut -d' ' -f2); echo "port=$port"; curl -sS --max-time 10 "http://127.0.0.1:$port/index.html"`
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{jobCall("start", "run_bash", map[string]any{"command": serverCommand, "background": true})}},
		{ToolCalls: []fakellm.ToolCall{jobCall("read", "job_output", map[string]any{"job_id": "1", "wait_seconds": 10})}},
		{ToolCalls: []fakellm.ToolCall{bashCall("curl", curl)}},
		{ToolCalls: []fakellm.ToolCall{jobCall("log", "job_output", map[string]any{"job_id": "1", "wait_seconds": 10})}},
		{ToolCalls: []fakellm.ToolCall{jobCall("stop", "job_stop", map[string]any{"job_id": "1"})}},
		{Text: "Done."},
	}})
	defer srv.Close()
	home := sandboxHome(t)
	data := filepath.Join(home, ".config", "pilot")
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(pilotBinary(t), args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + data,
			"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	if _, errOut, err := run("-p", "Serve the folder and fetch the page", "--project", dir, "--approve", "edits"); err != nil {
		t.Fatalf("pilot -p: %v\n%s", err, errOut)
	}
	res := map[string]fakellm.ToolResult{}
	for _, r := range srv.Requests() {
		for _, tr := range r.ToolResults {
			res[tr.ToolUseID] = tr
		}
	}
	start, read, got, log, stop := res["start"].Content, res["read"].Content, res["curl"].Content, res["log"].Content, res["stop"].Content
	if !strings.Contains(start, "Started background job 1 in the sandbox") || res["start"].IsError {
		t.Fatalf("run_bash background: true gave:\n%s", start)
	}
	m := regexp.MustCompile(`Serving HTTP on 127\.0\.0\.1 port (\d+)`).FindStringSubmatch(start + read)
	if m == nil {
		t.Fatalf("the server's start line is in neither the start nor job_output:\n%s\n---\n%s", start, read)
	}
	port := m[1]
	if !strings.Contains(got, "port="+port) || !strings.Contains(got, "served by the job") || res["curl"].IsError {
		t.Errorf("curl in the same sandbox (port %s) gave:\n%s", port, got)
	}
	if !strings.Contains(log, `"GET /index.html HTTP/1.1" 200`) || !strings.Contains(log, "Job 1 is running") {
		t.Errorf("job_output after the request gave:\n%s", log)
	}
	if !strings.Contains(stop, "Stopped job 1") || !strings.Contains(stop, "was stopped") {
		t.Errorf("job_stop gave:\n%s", stop)
	}
	if left := proctest.WithCmdline(dir); len(left) > 0 {
		t.Errorf("processes of the stopped job are left:\n%s", strings.Join(left, "\n"))
	}
	list, _, err := run("sessions", "list", "--project", dir, "--json")
	ss := decodeLines[wire.SessionRecord](t, list)
	if err != nil || len(ss) == 0 {
		t.Fatalf("sessions list: %v %s", err, list)
	}
	changes, _, err := run("sessions", "changes", fmt.Sprint(ss[0].ID))
	if err != nil || !regexp.MustCompile(`(?s)\(background job 1\).*created\s+server\.log`).MatchString(changes) {
		t.Errorf("the ledger does not record server.log as the job's (%v):\n%s", err, changes)
	}
}

// TestHeadlessJobsEndWithTheRun: pilot -p leaves no job running when it
// exits, at the end of its turn and when interrupted mid-turn (SIGINT
// and SIGTERM), and says which jobs it stopped.
func TestHeadlessJobsEndWithTheRun(t *testing.T) {
	t.Parallel()
	needJobTools(t)
	for _, c := range []struct {
		name string
		sig  os.Signal
	}{{"end of the turn", nil}, {"SIGINT", syscall.SIGINT}, {"SIGTERM", syscall.SIGTERM}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := tempProject(t, nil)
			turns := []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{jobCall("start", "run_bash", map[string]any{"command": serverCommand, "background": true})}},
			}
			if c.sig != nil {
				turns = append(turns, fakellm.Turn{ToolCalls: []fakellm.ToolCall{bashCall("wait", "echo waiting-for-the-signal; sleep 60")}})
			}
			turns = append(turns, fakellm.Turn{Text: "Done.", Repeat: true})
			srv := fakellm.New(fakellm.Script{Turns: turns})
			defer srv.Close()
			home := sandboxHome(t)
			cmd := exec.Command(pilotBinary(t), "-p", "Serve", "--project", dir, "--approve", "edits")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + filepath.Join(home, ".config", "pilot"),
				"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
			errPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			r := bufio.NewReader(io.TeeReader(errPipe, &stderr))
			if c.sig != nil {
				waitFor(t, r, "→ Running bash: echo waiting-for-the-signal") // the job runs, the turn is at its next command
				if len(proctest.WithCmdline(dir)) == 0 {
					t.Fatal("the job is not running mid-turn")
				}
				if err := cmd.Process.Signal(c.sig); err != nil {
					t.Fatal(err)
				}
			}
			_, _ = io.Copy(io.Discard, r)
			err = cmd.Wait()
			var exit *exec.ExitError
			switch {
			case c.sig == nil && err != nil:
				t.Errorf("pilot -p: %v\n%s", err, stderr.String())
			case c.sig != nil && (!errors.As(err, &exit) || exit.ExitCode() != 130):
				t.Errorf("pilot -p after %s: %v (want exit 130)\n%s", c.name, err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "pilot: stopped background job 1 at the end of the run: python3 -m http.server") {
				t.Errorf("stderr does not say the job was stopped:\n%s", stderr.String())
			}
			if left := proctest.WithCmdline(dir); len(left) > 0 {
				t.Errorf("processes of the run's job outlived it:\n%s", strings.Join(left, "\n"))
			}
		})
	}
}
