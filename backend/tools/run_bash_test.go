package tools

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/keyvars"
	"pilot/backend/projectroot"
)

// runApproved proposes and applies a command.
func runApproved(t *testing.T, f *fixture, in map[string]any, onOutput func(string)) (Result, error) {
	t.Helper()
	res := f.call("run_bash", in)
	if res.Proposal == nil || res.Proposal.Command == nil {
		t.Fatalf("no command proposal: %s", res.Output)
	}
	return f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{OnOutput: onOutput})
}

func TestRunBash(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"x.txt": "x"})
	tests := []struct {
		cmd   string
		isErr bool
		want  []string
	}{
		{"pwd; ls", false, []string{f.dir, "x.txt", "[exit code 0]"}},
		{"echo out; echo err >&2; echo out2", false, []string{"out\nerr\nout2"}},
		{"exit 3", true, []string{"(no output)", "[exit code 3]"}},
		{"nosuchcommand-xyz", true, []string{"[exit code 127: command not found"}},
		{"touch s.sh; ./s.sh", true, []string{"[exit code 126:"}},
		{"kill -INT $$", true, []string{"[exit code 130: interrupted"}},
		{"kill -KILL $$", true, []string{"[exit code 137: killed by SIGKILL"}},
		{"cat; echo done", false, []string{"done"}}, // stdin is /dev/null
		{"seq 1 100000", false, []string{"1\n2\n3\n", "100000", "of output left out", "lines"}},
	}
	for _, tc := range tests {
		res, err := runApproved(t, f, map[string]any{"command": tc.cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		expect(t, res, tc.isErr, tc.want...)
		if len(res.Output) > keepHead+keepTail+500 {
			t.Errorf("%s: output of %d bytes not capped", tc.cmd, len(res.Output))
		}
	}
	expect(t, f.call("run_bash", map[string]any{"command": "  "}), true, "command is empty")
	expect(t, f.call("run_bash", map[string]any{"command": "x", "timeout_seconds": -1}), true, "negative")
	res := f.call("run_bash", map[string]any{"command": "x", "timeout_seconds": 5000})
	if res.Proposal.Command.Timeout != maxTimeout || res.Proposal.Command.Dir != f.dir {
		t.Errorf("command %+v", res.Proposal.Command)
	}
	if c := f.call("run_bash", map[string]any{"command": "x"}).Proposal.Command; c.Timeout != defaultTimeout {
		t.Errorf("default timeout %v", c.Timeout)
	}
}

func TestRunBashStreamsOutput(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	var mu sync.Mutex
	var chunks []string
	res, err := runApproved(t, f, map[string]any{"command": "echo one; sleep 1; echo two"}, func(s string) {
		mu.Lock()
		chunks = append(chunks, s)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) < 2 || strings.Join(chunks, "") != "one\ntwo\n" {
		t.Errorf("chunks %q", chunks)
	}
	expect(t, res, false, "one\ntwo")
}

// A command gets the allowlisted environment: no preset's key variable,
// no secret-shaped name, no value holding a key, as the command itself
// and the kernel (/proc/$$/environ, /proc/$$/cmdline) see it.
func TestRunBashEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, _ := projectroot.New(dir)
	env := []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "GOFLAGS=-mod=mod", "KEEP=1", "OPENAI_BASE_URL=b",
		"GITHUB_TOKEN=gh-token-value", "MY_SECRET_X=secret-value", "DB_PASSWORD=password-value", "anthropic_x=g",
		"SSH_AUTH_SOCK=/run/agent", "EDITOR=vi key-of-groq_api_key-0123456789"}
	var keys []string
	for _, v := range keyvars.All() {
		key := "key-of-" + strings.ToLower(v) + "-0123456789"
		keys = append(keys, key)
		env = append(env, v+"="+key)
	}
	f := &fixture{t: t, dir: dir, reg: New(Deps{Root: root, Env: env})}
	res, err := runApproved(t, f, map[string]any{"command": "env | sort; echo ---; tr '\\0' '\\n' < /proc/$$/environ; echo ---; tr '\\0' ' ' < /proc/$$/cmdline"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, false, "LANG=C.UTF-8", "GOFLAGS=-mod=mod", "PWD="+dir)
	if strings.Count(res.Output, "LANG=C.UTF-8") != 2 {
		t.Errorf("/proc/$$/environ not read:\n%s", res.Output)
	}
	bad := append([]string{"KEEP", "OPENAI", "TOKEN", "SECRET", "PASSWORD", "API_KEY", "anthropic", "SSH_AUTH_SOCK", "EDITOR", "-value"}, keys...)
	for _, b := range bad {
		if strings.Contains(res.Output, b) {
			t.Errorf("%s reached the command:\n%s", b, res.Output)
		}
	}
}

// Timeout and cancel kill the whole process group, background jobs too.
func TestRunBashKillsGroup(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	pidFile := f.dir + "/bg.pid"
	start := time.Now()
	res, err := runApproved(t, f, map[string]any{"command": "sleep 30 & echo $! > bg.pid; sleep 30", "timeout_seconds": 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, true, "timed out after 1 s", "timeout_seconds")
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	assertDead(t, pidFile)

	// Cancelled once the command has started its job and said so (a file
	// it makes then, not a guess at how long that takes on a busy machine).
	ctx, cancel := context.WithCancel(context.Background())
	pidFile = f.dir + "/bg2.pid"
	ready := f.dir + "/started"
	prop := f.call("run_bash", map[string]any{"command": "sleep 30 & echo $! > bg2.pid; echo started; touch started; sleep 30"}).Proposal
	go func() {
		defer cancel()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(ready); err == nil {
				return
			}
		}
	}()
	res, err = f.reg.Apply(ctx, prop, ApplyOptions{})
	if err == nil {
		t.Fatal("cancelled command returned no error")
	}
	expect(t, res, true, "started", "cancelled by the user")
	assertDead(t, pidFile)
	pidFile = f.dir + "/bg3.pid"

	// A finished command's leftover background job is killed too.
	if _, err := runApproved(t, f, map[string]any{"command": "sleep 30 & echo $! > bg3.pid"}, nil); err != nil {
		t.Fatal(err)
	}
	assertDead(t, pidFile)
}

func assertDead(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	for range 50 {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("background process %s survived", pid)
}
