package settingsjson

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
