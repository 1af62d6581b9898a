package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/paths"
	"pilot/backend/store"
	"pilot/backend/wire"
)

type ran struct {
	code           int
	stdout, stderr string
}

// pilotRules runs the real binary with a clean environment in the folder
// cwd.
func pilotRules(t *testing.T, home, cwd string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(pilotBinary(t), append([]string{"rules"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + home}
	cmd.Dir = cwd
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return ran{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

func ruleLines(t *testing.T, out string) []wire.RuleLine {
	t.Helper()
	return decodeLines[wire.RuleLine](t, out)
}

// network is a rule tool (the hosts sandboxed commands reach), apart from
// web_fetch.
func TestRulesAddNetwork(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"allow", "network", "*.github.com"}, {"deny", "network", "*"}} {
		if r := pilotRules(t, home, dir, append([]string{"add"}, args...)...); r.code != 0 {
			t.Fatalf("rules add %q: exit %d, %q", args, r.code, r.stderr)
		}
	}
	r := pilotRules(t, home, dir, "list", "--json")
	ls := ruleLines(t, r.stdout)
	if len(ls) != 2 || ls[0].Tool != "network" || ls[0].Invalid || ls[1].Tool != "network" || ls[1].Invalid {
		t.Errorf("list: %+v (%s)", ls, r.stderr)
	}
	if r := pilotRules(t, home, dir, "--help"); !strings.Contains(r.stdout+r.stderr, "allow network HOST does not let web_fetch") {
		t.Errorf("the usage does not say network and web_fetch rules are apart: %s", r.stdout+r.stderr)
	}
}

// pilot rules add refuses every rule the issue lists as one that silently
// does nothing, with exit 2 and the sentence, and stores nothing.
func TestRulesAddRefusesBadRules(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"deny", "run_bash", "rm [x"}, `The pattern "rm [x" of the rule cannot be read`},
		{[]string{"deny", "run_bash", "rm {a,b"}, `The pattern "rm {a,b" of the rule cannot be read`},
		{[]string{"deny", "bash", "rm *"}, `the tool "bash", which does not exist: write run_bash instead.`},
		{[]string{"deny", "Run_Bash", "rm *"}, `write run_bash instead.`},
		{[]string{"deny", "run_bash", ""}, "has an empty pattern"},
		{[]string{"deny", "mcp__nowhere", "*"}, `"mcp__nowhere"`},
		{[]string{"maybe", "run_bash", "ls"}, `"maybe" is neither`},
		{[]string{"allow", "network", "localhost:8080"}, "names a port, but a network rule names a host"},
		{[]string{"allow", "network", "https://registry.npmjs.org/"}, "is a URL"},
	} {
		r := pilotRules(t, home, dir, append([]string{"add"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "usage:") || r.stdout != "" {
			t.Errorf("rules add %q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
	if r := pilotRules(t, home, dir, "list", "--json"); r.code != 0 || r.stdout != "" {
		t.Errorf("list after refusals: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestRulesBadArgumentsPrintUsage(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	for _, args := range [][]string{
		{}, {"add", "allow"}, {"add", "allow", "run_bash", "a", "b"}, {"remove"}, {"remove", "x1"},
		{"list", "--frobnicate"}, {"list", "--project"}, {"zap"},
	} {
		r := pilotRules(t, home, dir, args...)
		if r.code != 2 || !strings.Contains(r.stderr+r.stdout, "pilot rules add allow|deny TOOL PATTERN") {
			t.Errorf("rules %q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{{"--help"}, {"help"}} {
		if r := pilotRules(t, home, dir, args...); r.code != 0 || !strings.Contains(r.stdout, "pilot rules list [--project DIR] [--json]") {
			t.Errorf("rules %q: exit %d, %q", args, r.code, r.stdout)
		}
	}
	cmd := exec.Command(pilotBinary(t), "help")
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "pilot rules list|add") {
		t.Errorf("pilot help: %v\n%s", err, out)
	}
}

// add, list (a rule stored before validation flagged with its sentence,
// in text and JSON), remove (only the project's own rules), with the
// project from --project or the current folder, through a link too.
func TestRulesListAddRemove(t *testing.T) {
	t.Parallel()
	home, dir, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers":{"fs":{"command":"fs-server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder named like the command does not make it open the window.
	if err := os.Mkdir(filepath.Join(dir, "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}

	if r := pilotRules(t, home, dir, "list"); r.code != 0 || !strings.Contains(r.stdout, "No rules in "+dir) {
		t.Fatalf("list of a project never opened: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	r := pilotRules(t, home, elsewhere, "add", "allow", "run_bash", "go test *", "--project", link)
	if r.code != 0 || r.stdout != "Added rule 1 in "+dir+": allow run_bash \"go test *\"\n" {
		t.Fatalf("add: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	r = pilotRules(t, home, dir, "add", "--json", "allow", "mcp__fs", "read*")
	if ls := ruleLines(t, r.stdout); r.code != 0 || len(ls) != 1 || ls[0] != (wire.RuleLine{ID: 2, Effect: "allow", Tool: "mcp__fs", Pattern: "read*"}) {
		t.Fatalf("add --json: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}

	// A rule the old code let in, put in through the store as it did.
	ctx := context.Background()
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Projects.ByPath(ctx, dir)
	if err == nil {
		_, err = st.Rules.Add(ctx, store.Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "rm [x", Effect: store.Deny})
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	r = pilotRules(t, home, dir, "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 5 || !strings.HasPrefix(lines[0], "ID") ||
		!strings.Contains(lines[3], `"rm [x"`) || !strings.Contains(lines[3], `INVALID: The pattern "rm [x" of the rule cannot be read`) ||
		strings.Contains(lines[1]+lines[2], "INVALID") || !strings.HasPrefix(lines[4], "1 of 3 rules cannot match") {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = pilotRules(t, home, dir, "list", "--json")
	ls := ruleLines(t, r.stdout)
	if r.code != 0 || len(ls) != 3 || ls[0].Invalid || ls[1].Invalid || !ls[2].Invalid || ls[2].ID != 3 || !strings.Contains(ls[2].Reason, `"rm [x" of the rule cannot be read`) {
		t.Fatalf("list --json: %+v, %s", ls, r.stderr)
	}

	// Another project's rule and an unknown id are not removed.
	if r := pilotRules(t, home, elsewhere, "add", "deny", "read_file", ".env"); r.code != 0 {
		t.Fatalf("add elsewhere: %d %s", r.code, r.stderr)
	}
	for _, id := range []string{"4", "99"} {
		if r := pilotRules(t, home, dir, "remove", id); r.code != 1 || !strings.Contains(r.stderr, dir+" has no rule "+id+"; pilot rules list shows its rules.") {
			t.Errorf("remove %s: exit %d, %q", id, r.code, r.stderr)
		}
	}
	if r := pilotRules(t, home, t.TempDir(), "remove", "1"); r.code != 1 || !strings.Contains(r.stderr, "has not been opened in Pilot") {
		t.Errorf("remove in a project never opened: exit %d, %q", r.code, r.stderr)
	}
	if r := pilotRules(t, home, dir, "remove", "3"); r.code != 0 || r.stdout != "Removed rule 3 in "+dir+": deny run_bash \"rm [x\"\n" {
		t.Errorf("remove 3: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if ls := ruleLines(t, pilotRules(t, home, dir, "list", "--json").stdout); len(ls) != 2 {
		t.Errorf("after remove: %+v", ls)
	}
	if ls := ruleLines(t, pilotRules(t, home, elsewhere, "list", "--json").stdout); len(ls) != 1 || ls[0].Tool != "read_file" {
		t.Errorf("the other project's rules: %+v", ls)
	}
}
