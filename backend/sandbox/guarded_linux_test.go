//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plants are what a command could do to what grants or runs things on
// the host; each works outside the sandbox (the control below).
var plants = []string{
	"echo evil > .claude/hooks/check.sh",
	`echo '{"hooks":{}}' > .claude/settings.json`,
	"touch .claude/settings.local.json",
	"mkdir .claude/agents",
	"rm .claude/settings.json",
	"mv .claude .claude-old",
	"ln -sf /tmp/x .claude/settings.json",
	"chmod 777 .claude/hooks/check.sh",
	"rm -rf .pilot",
	"echo '{}' > .mcp.json",
	"mv .mcp.json x.json",
	"echo evil >> scripts/lint.sh",
	"truncate -s 0 scripts/lint.sh",
	"rm scripts/lint.sh",
	`python3 -c "open('.claude/hooks/check.sh','w').write('evil')"`,
}

// The control: each plant works in the same folders outside the sandbox,
// so the refusals in the pod prove something.
func TestGuardedPlantsWorkOutside(t *testing.T) {
	t.Parallel()
	for _, cmd := range plants {
		proj := t.TempDir()
		for rel, body := range map[string]string{".claude/settings.json": "{}", ".claude/hooks/check.sh": "exit 0\n", ".pilot/settings.json": "{}", ".mcp.json": "{}", "scripts/lint.sh": "exit 0\n"} {
			p := filepath.Join(proj, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		c := exec.Command("bash", "-c", cmd)
		c.Dir = proj
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("control: %s failed outside the sandbox too: %v\n%s", cmd, err, out)
		}
	}
}

// What grants or runs things on the host is read-only in the pod: no
// command writes, removes, renames or adds to the project's .claude/,
// .pilot/, .mcp.json or a script a hook runs (with Landlock and without),
// while the rest of the project stays writable, and Explain says why and
// what to do instead. Without Guarded (the old pod) every one of these
// writes succeeds.
func TestGuardedReadOnlyInPod(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, noLandlock := range []bool{false, true} {
		home, proj := t.TempDir(), t.TempDir()
		for rel, body := range map[string]string{
			".claude/settings.json": "{}", ".claude/hooks/check.sh": "exit 0\n", ".pilot/settings.json": "{}",
			".mcp.json": "{}", "scripts/lint.sh": "exit 0\n", "src/a.txt": "a\n",
		} {
			p := filepath.Join(proj, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		guarded := []string{filepath.Join(proj, ".claude"), filepath.Join(proj, ".pilot"), filepath.Join(proj, ".mcp.json"),
			filepath.Join(proj, "scripts/lint.sh"), filepath.Join(proj, "missing.sh"), filepath.Join(home, "outside")}
		s := NewSession(Policy{Project: proj, Home: home, NoLandlock: noLandlock, Guarded: guarded})
		t.Cleanup(func() { s.Close() })
		env := baseEnv(home)
		for _, cmd := range plants {
			out, code := run(t, s, proj, env, cmd)
			if code == 0 {
				t.Errorf("landlock off %v: %s succeeded:\n%s", noLandlock, cmd, out)
				continue
			}
			if got := Explain(s.Policy(), cmd, out); len(got) == 0 || !strings.Contains(got[0], "read-only: what grants Pilot rights or runs on the user's machine") || !strings.Contains(got[0], "write_file or patch_file") {
				t.Errorf("landlock off %v: %s: explained %q for:\n%s", noLandlock, cmd, got, out)
			}
		}
		for _, cmd := range []string{"echo b > src/a.txt", "touch new.txt", "mkdir -p scripts/more && touch scripts/more/x"} {
			if out, code := run(t, s, proj, env, cmd); code != 0 {
				t.Errorf("landlock off %v: %s failed in the project:\n%s", noLandlock, cmd, out)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(proj, ".claude/hooks/check.sh")); string(b) != "exit 0\n" {
			t.Errorf("the hook's script changed: %q", b)
		}
	}
}

// Guarded paths that do not exist, lie outside the project, are the
// project itself or lie in a hidden folder are not bound.
func TestGuardedPathsLeaveOut(t *testing.T) {
	t.Parallel()
	home, proj := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "secret/.pilot"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Policy{Project: proj, Home: home, Hidden: []string{filepath.Join(proj, "secret")},
		Guarded: []string{filepath.Join(proj, ".claude"), filepath.Join(proj, "none"), proj, home, filepath.Join(proj, "secret/.pilot")}}
	if got := guardedPaths(p); len(got) != 1 || got[0] != filepath.Join(proj, ".claude") {
		t.Errorf("guardedPaths = %v", got)
	}
}
