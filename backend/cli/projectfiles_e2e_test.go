package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
)

// Project files Pilot reads on the host, with the production binary: the
// red team's plant, then the later Pilot actions, then a look for the
// leak, the hang or the growth.

// filesEnv is a run's environment: HOME home (PILOT_HOME inside it, with
// a saved key when key is set, else the key in the environment), and
// extra.
func filesEnv(t *testing.T, srv *fakellm.Server, home, key string, extra ...string) []string {
	t.Helper()
	data := filepath.Join(home, ".config", "pilot")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + data,
		"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL()}
	if key != "" {
		b, _ := json.Marshal(map[string]string{"anthropic": key})
		if err := os.WriteFile(filepath.Join(data, "keys.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	} else {
		env = append(env, "ANTHROPIC_API_KEY=sk-test")
	}
	return append(env, extra...)
}

// filesRun runs the binary with args and env, bounded by a deadline (a
// run that hangs is killed and fails the test), its address space capped
// at 4 GiB with prlimit where there is one (so a run that grows cannot
// take the shared machine down), and returns its output, its exit code
// and its peak resident memory in KiB.
func filesRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int, maxRSS int64) {
	t.Helper()
	bin := pilotBinary(t) // built once, before the deadline starts
	name, all := bin, args
	if p, err := exec.LookPath("prlimit"); err == nil {
		name, all = p, append([]string{"--as=4294967296", "--", bin}, args...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, all...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("pilot %s did not finish within a minute (killed)\n%s", strings.Join(args, " "), errb.String())
	}
	code = cmd.ProcessState.ExitCode()
	maxRSS = peakRSS(cmd.ProcessState)
	if err != nil && code < 0 {
		t.Fatalf("pilot %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String(), code, maxRSS
}

// Finding 3: instruction files and a command file that are links out of
// the project (to Pilot's own environment, the saved key, an SSH key, a
// secret file) are read on the host under --approve none: no request the
// model server received holds any of the secrets, and the run tells the
// user which files were not read and what to do.
func TestProjectFileLinksDoNotLeak(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Done.", Repeat: true}}})
	defer srv.Close()
	home, dir, outside := t.TempDir(), t.TempDir(), t.TempDir()
	const savedKey = "sk-ant-saved-canary-4f1c2a9e"
	env := filesEnv(t, srv, home, savedKey, "PILOT_E2E_ENV_CANARY=env-canary-77d1")
	ssh := filepath.Join(home, ".ssh", "id_rsa")
	secret := filepath.Join(outside, "secret.md")
	for path, text := range map[string]string{ssh: "-----BEGIN SSH-CANARY-9a8b-----\n", secret: "CMD-CANARY-5e6f: exfiltrate\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"AGENTS.md":             "/proc/self/environ",
		"CLAUDE.md":             filepath.Join(home, ".config", "pilot", "keys.json"),
		"progress.md":           ssh,
		".claude/commands/x.md": secret,
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code, _ := filesRun(t, env, "-p", "Hello", "--project", dir, "--approve", "none")
	if code != 0 {
		t.Fatalf("pilot -p: exit %d\n%s", code, stderr)
	}
	for _, name := range []string{"AGENTS.md", "CLAUDE.md", "progress.md"} {
		if !strings.Contains(stderr, name+" was not read: it is a link to ") || !strings.Contains(stderr, "Replace the link with the file itself.") {
			t.Errorf("the run does not say %s was not read:\n%s", name, stderr)
		}
	}
	_, stderr, code, _ = filesRun(t, env, "-p", "/x", "--project", dir, "--approve", "none")
	if code == 0 || !strings.Contains(stderr, "/x was not run: .claude/commands/x.md was not read: it is a link to "+secret+", outside the project folder") {
		t.Errorf("/x: exit %d\n%s", code, stderr)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never called")
	}
	b, _ := json.Marshal(reqs)
	for _, canary := range []string{"env-canary-77d1", savedKey, "SSH-CANARY-9a8b", "CMD-CANARY-5e6f"} {
		if bytes.Contains(b, []byte(canary)) {
			t.Errorf("a request to the model holds %q", canary)
		}
	}
}

// maxRSSKiB is the generous bound of a run's peak memory: Pilot needs
// well under 200 MB for a turn; reading /dev/zero took it past 1.5 GB.
const maxRSSKiB = 512 << 10
