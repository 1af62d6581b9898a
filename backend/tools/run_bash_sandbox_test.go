//go:build linux

package tools

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/sandbox"
)

// sandboxFixture is a registry over a temporary project whose commands
// run in a real pod, with a test home holding a secret under ~/.ssh.
type sandboxFixture struct {
	*fixture
	home    string
	canary  string
	session *sandbox.Session
}

func newSandboxFixture(t *testing.T) *sandboxFixture {
	t.Helper()
	if !sandbox.Probe().Ready {
		t.Skipf("no sandbox on this machine: %s", sandbox.Probe().Why)
	}
	f := newFixture(t, map[string]string{"x.txt": "x"})
	home := t.TempDir()
	canary := fmt.Sprintf("canary-%d", time.Now().UnixNano())
	writeTestFile(t, filepath.Join(home, ".ssh", "id_ed25519"), canary)
	writeTestFile(t, filepath.Join(home, ".bashrc"), "# the user's\n")
	f.reg.deps.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	s := sandbox.NewSession(sandbox.Policy{Project: f.dir, Home: home, PilotHome: filepath.Join(home, ".pilot")})
	t.Cleanup(func() { s.Close() })
	return &sandboxFixture{fixture: f, home: home, canary: canary, session: s}
}

// run proposes and applies a command in the sandbox.
func (f *sandboxFixture) run(cmd string) Result {
	f.t.Helper()
	res := f.call("run_bash", map[string]any{"command": cmd})
	if res.Proposal == nil || res.Proposal.Command == nil {
		f.t.Fatalf("no command proposal: %s", res.Output)
	}
	out, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{Sandbox: f.session})
	if err != nil {
		f.t.Fatalf("%s: %v", cmd, err)
	}
	return out
}

// A sandboxed command keeps run_bash's semantics: output, exit codes,
// signals, stdin from /dev/null, the cap on output.
func TestRunBashSandboxedSameResults(t *testing.T) {
	t.Parallel()
	f := newSandboxFixture(t)
	tests := []struct {
		cmd   string
		isErr bool
		want  []string
	}{
		{"pwd; ls", false, []string{f.dir, "x.txt", "[exit code 0]"}},
		{"echo out; echo err >&2; echo out2", false, []string{"out\nerr\nout2"}},
		{"exit 3", true, []string{"(no output)", "[exit code 3]"}},
		{"nosuchcommand-xyz", true, []string{"[exit code 127: command not found"}},
		{"kill -INT $$", true, []string{"[exit code 130: interrupted"}},
		{"kill -KILL $$", true, []string{"[exit code 137: killed by SIGKILL"}},
		{"cat; echo done", false, []string{"done"}},
		{"seq 1 100000", false, []string{"1\n2\n3\n", "100000", "of output left out"}},
		{"echo $PILOT_SANDBOX; test -d \"$TMPDIR\" && echo tmp-ok", false, []string{"1\ntmp-ok"}},
	}
	for _, tc := range tests {
		res := f.run(tc.cmd)
		expect(t, res, tc.isErr, tc.want...)
		if len(res.Blocked) != 0 {
			t.Errorf("%s: blocked %q though nothing was", tc.cmd, res.Blocked)
		}
	}
}

// The acceptance of issue 23 at Go level: a sandboxed command writes in
// the project, and is blocked (with a sentence naming the sandbox) for
// writing to $HOME or to /tmp outside its TMPDIR, reading ~/.ssh,
// connecting to the host and signalling a process outside.
func TestRunBashSandboxBlocks(t *testing.T) {
	t.Parallel()
	f := newSandboxFixture(t)

	res := f.run("echo made > made.txt && echo tmp > $TMPDIR/t && cat made.txt $TMPDIR/t")
	expect(t, res, false, "made\ntmp", "[exit code 0]")
	if b, err := os.ReadFile(filepath.Join(f.dir, "made.txt")); err != nil || string(b) != "made\n" {
		t.Fatalf("the write in the project did not land: %q %v", b, err)
	}

	outside := filepath.Join(os.TempDir(), fmt.Sprintf("pilot-outside-%d", time.Now().UnixNano()))
	t.Cleanup(func() { os.Remove(outside) })
	res = f.run("echo owned >> ~/.bashrc")
	expect(t, res, true, "The sandbox blocked writing to ~/.bashrc", "sandbox: false")
	if b, _ := os.ReadFile(filepath.Join(f.home, ".bashrc")); string(b) != "# the user's\n" {
		t.Errorf("~/.bashrc changed: %q", b)
	}
	res = f.run("echo owned > " + outside)
	expect(t, res, true, "The sandbox blocked writing to "+outside)
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s was written from the sandbox: %v", outside, err)
	}

	res = f.run("cp /bin/true tool && chmod u+s tool")
	expect(t, res, true, "The sandbox refuses the setuid and setgid bits")
	if st, err := os.Stat(filepath.Join(f.dir, "tool")); err != nil || st.Mode()&os.ModeSetuid != 0 {
		t.Errorf("the tool in the project: %v %v", st, err)
	}

	res = f.run("cat ~/.ssh/id_ed25519")
	expect(t, res, true, "~/.ssh is hidden from commands by the sandbox")
	if strings.Contains(res.Output, f.canary) {
		t.Fatalf("the secret was read: %s", res.Output)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	res = f.run(fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port))
	expect(t, res, true, "failed in the sandbox: commands have no network")
	if strings.Contains(res.Output, "connected") {
		t.Fatalf("connected: %s", res.Output)
	}
	// A connection would wait in the listener's queue: none may be there.
	_ = ln.(*net.TCPListener).SetDeadline(time.Now())
	if c, err := ln.Accept(); err == nil {
		c.Close()
		t.Fatal("the host's listener got a connection from the sandbox")
	}

	sleep := exec.Command("sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = sleep.Wait(); close(waited) }()
	defer func() { _ = sleep.Process.Kill(); <-waited }()
	res = f.run(fmt.Sprintf("kill -0 %d && echo seen; kill -KILL %d && echo killed", sleep.Process.Pid, sleep.Process.Pid))
	expect(t, res, true, "The sandbox keeps commands away from processes outside it")
	if strings.Contains(res.Output, "seen") || strings.Contains(res.Output, "killed") {
		t.Fatalf("the process outside was reached: %s", res.Output)
	}
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", sleep.Process.Pid)); err != nil || strings.Contains(string(st), ") Z ") {
		t.Fatalf("the process outside died: %s %v", st, err)
	}
	select {
	case <-waited:
		t.Fatal("the process outside ended")
	default:
	}
}

// A command's timeout and the user's cancel kill its whole group in the
// sandbox too, and background jobs do not outlive the command.
func TestRunBashSandboxTimeoutAndCancel(t *testing.T) {
	t.Parallel()
	f := newSandboxFixture(t)
	res := f.call("run_bash", map[string]any{"command": "sleep 600 & echo started; wait", "timeout_seconds": 1})
	out, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{Sandbox: f.session})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, out, true, "started", "[timed out after 1 s")

	ctx, cancel := context.WithCancel(context.Background())
	res = f.call("run_bash", map[string]any{"command": "echo go; sleep 600"})
	out, err = f.reg.Apply(ctx, res.Proposal, ApplyOptions{Sandbox: f.session, OnOutput: func(s string) {
		if strings.Contains(s, "go") {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.Output, "[cancelled by the user") {
		t.Fatalf("cancel: %v %q", err, out.Output)
	}
	// No sleep is left in the pod: the next command sees none.
	expect(t, f.run("pgrep -x sleep || echo none"), false, "none")
}

// The pod killed under a running command: the result says the command did
// not finish and why; the next command runs in a new pod.
func TestRunBashSandboxPodDies(t *testing.T) {
	t.Parallel()
	f := newSandboxFixture(t)
	expect(t, f.run("true"), false, "[exit code 0]")
	pod := f.session.PodPID()
	res := f.call("run_bash", map[string]any{"command": "echo up; sleep 600"})
	out, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{Sandbox: f.session, OnOutput: func(s string) {
		if strings.Contains(s, "up") {
			_ = syscall.Kill(pod, syscall.SIGKILL)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, out, true, "up", "[the command did not finish: the sandbox's pod ended")
	expect(t, f.run("echo again"), false, "again")
	if f.session.PodPID() == pod {
		t.Error("no new pod")
	}
}
