package settingsjson

import (
	"pilot/backend/trustfile"

	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// The files a hook's command names, found with the bash parser.
func TestScriptsOf(t *testing.T) {
	t.Parallel()
	run := "/p"
	for _, c := range []struct {
		command  string
		rels     []string
		required []string
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`, []string{".claude/hooks/check.sh"}, []string{".claude/hooks/check.sh"}},
		{`${PILOT_PROJECT_DIR}/x.sh --fast`, []string{"x.sh"}, []string{"x.sh"}},
		{`./scripts/lint.sh`, []string{"scripts/lint.sh"}, []string{"scripts/lint.sh"}},
		{`bash scripts/x.sh arg`, []string{"scripts/x.sh"}, []string{"scripts/x.sh"}},
		{`node tools/check.js && python3 -u hooks/a.py`, []string{"hooks/a.py", "tools/check.js"}, []string{"hooks/a.py", "tools/check.js"}},
		{`sh -c './inner.sh; echo done'`, []string{"inner.sh"}, []string{"inner.sh"}},
		{`timeout 5 env A=1 ./w.sh`, []string{"w.sh"}, []string{"w.sh"}},
		{`npx tsx scripts/check.ts`, []string{"scripts/check.ts"}, nil},
		{`/p/abs.sh`, []string{"abs.sh"}, []string{"abs.sh"}},
		{`/usr/bin/jq -r .tool_input.file_path`, nil, nil},
		{`python -m mypkg`, nil, nil},
		{`npm run lint --silent`, nil, nil},
		{`"$HOME"/x.sh; $OTHER/y.sh; ../out.sh; ~/z.sh`, nil, nil},
		{`cat > "$CLAUDE_PROJECT_DIR/log.txt"`, nil, nil},
	} {
		h := Hooks{"PreToolUse": {{Hooks: []Hook{{Type: "command", Command: c.command}}}}}
		rels, required := ScriptsOf(run, h)
		var req []string
		for _, r := range rels {
			if required[r] {
				req = append(req, r)
			}
		}
		if !reflect.DeepEqual(rels, c.rels) || !reflect.DeepEqual(req, c.required) {
			t.Errorf("%s: %v (required %v), want %v (%v)", c.command, rels, req, c.rels, c.required)
		}
	}
}

// Trust covers the scripts a project's hooks run: the file is trusted
// with them as they were; a script changed, added or made a link out of
// the project voids the trust, and Untrusted names it.
func TestTrustCoversScripts(t *testing.T) {
	t.Parallel()
	pilotHome, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	put := func(rel, body string) {
		t.Helper()
		p := filepath.Join(project, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`},
		map[string]any{"type": "command", "command": `bash scripts/not-yet.sh`},
	}}}}})
	put(".claude/settings.json", string(settings))
	put(".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n")
	project1 := func() File {
		for _, f := range Load("", pilotHome, project) {
			if f.Scope == ScopeProject {
				return f
			}
		}
		t.Fatal("no project file")
		return File{}
	}
	f := project1()
	if len(f.Scripts) != 2 || f.Scripts[0].Rel != ".claude/hooks/check.sh" || !f.Scripts[1].Missing {
		t.Fatalf("scripts %+v", f.Scripts)
	}
	if f.TrustHash() == trustfile.Hash(f.Raw) {
		t.Error("the trust hash leaves the scripts out")
	}
	if err := Trust(pilotHome, f); err != nil {
		t.Fatal(err)
	}
	if !Trusted(pilotHome, project1()) {
		t.Fatal("not trusted after Trust")
	}
	put(".claude/hooks/check.sh", "#!/bin/sh\ntouch /tmp/pwned\n")
	f = project1()
	if Trusted(pilotHome, f) {
		t.Error("a changed script kept the trust")
	}
	if why := Untrusted(pilotHome, f, "hooks run"); !strings.Contains(why, ".claude/hooks/check.sh, which the hooks of") || !strings.Contains(why, "changed since you trusted it") {
		t.Errorf("Untrusted = %q", why)
	}
	if got := Changed(project, f.Scripts); got != nil {
		t.Errorf("Changed right after reading = %v", got)
	}
	put(".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n")
	if !Trusted(pilotHome, project1()) {
		t.Error("the script as trusted again is not trusted")
	}
	put("scripts/not-yet.sh", "echo planted\n")
	if f := project1(); Trusted(pilotHome, f) || !strings.Contains(Untrusted(pilotHome, f, "hooks run"), "scripts/not-yet.sh") {
		t.Error("a script made since the trust kept it")
	}
	if err := os.Remove(filepath.Join(project, "scripts/not-yet.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "evil.sh"), []byte("evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil.sh"), filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	f = project1()
	if Trusted(pilotHome, f) || Trust(pilotHome, f) == nil || !strings.Contains(Untrusted(pilotHome, f, "hooks run"), "outside the project folder") {
		t.Errorf("a script linked out of the project: %q", Untrusted(pilotHome, f, "hooks run"))
	}
	if err := os.Remove(filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(project, ".claude/hooks/check.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := project1(); Trusted(pilotHome, f) {
		t.Error("a FIFO script is trusted")
	}
}

// Finding 10.3: a never-trusted project whose .claude is a link to a
// trusted project's .claude gets no trust: the link out is refused, and
// the trust key is not the other project's.
func TestLinkedClaudeFolderGetsNoTrust(t *testing.T) {
	t.Parallel()
	pilotHome, trusted, other := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(trusted, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(trusted, ".claude/settings.json"), []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range Load("", pilotHome, trusted) {
		if err := Trust(pilotHome, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(trusted, ".claude"), filepath.Join(other, ".claude")); err != nil {
		t.Fatal(err)
	}
	files := Load("", pilotHome, other)
	if len(files) != 1 || files[0].Err == nil || Trusted(pilotHome, files[0]) || WasTrusted(pilotHome, files[0]) {
		t.Fatalf("%+v", files)
	}
	if !strings.Contains(files[0].Err.Error(), ".claude is a link to "+filepath.Join(trusted, ".claude")+", outside the project folder") {
		t.Errorf("err %v", files[0].Err)
	}
	if key(files[0].Path) != filepath.Join(other, ".claude/settings.json") {
		t.Errorf("key %s", key(files[0].Path))
	}
}
