package ledger

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestCommandListsEveryFile: a command's checkpoint lists every file the
// command created, modified or deleted, with whether the ledger kept it
// (can undo it) and why it can run code: the project's files within the
// limits are recorded; files in .git folders (a repository the command
// made, a hook it wrote, the project's own .git), ignored files and files
// over the per-command limit are listed without being kept, those that
// can run code first when there are too many to list.
func TestCommandListsEveryFile(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	type file struct {
		op       wire.LedgerOp
		kept     bool
		runsCode string // a word of the reason; "" when it cannot run code
	}
	tests := []struct {
		name    string
		files   map[string]string
		limits  Limits
		command func(f *fixture)
		want    map[string]file // every file listed on the card
		omitted int
		note    string // a part of the card's note
	}{
		{
			name: "a nested repository and its hook",
			command: func(f *fixture) {
				f.sh("mkdir sub && cd sub && git init -q && rm -rf .git/hooks/*.sample .git/info .git/description .git/logs && printf '#!/bin/sh\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout")
			},
			want: map[string]file{
				"sub/.git":                     {wire.OpCreated, false, "repository"},
				"sub/.git/HEAD":                {wire.OpCreated, false, ""},
				"sub/.git/config":              {wire.OpCreated, false, "git config"},
				"sub/.git/hooks/post-checkout": {wire.OpCreated, false, "git hook"},
			},
			note: "4 files are in .git folders or ignored: listed, not kept, they cannot be undone.",
		},
		{
			// The sandbox's placeholder in a folder with no repository:
			// an empty .git is none, and is not on the card.
			name:    "an empty .git",
			files:   map[string]string{"a.txt": "a\n"},
			command: func(f *fixture) { f.sh("mkdir .git sub && mkdir sub/.git && printf b > b.txt") },
			want:    map[string]file{"b.txt": {wire.OpCreated, true, ""}},
		},
		{
			name:  "the project's own .git, writable",
			files: map[string]string{".git/config": "[core]\n", ".git/HEAD": "ref: refs/heads/main\n", "a.txt": "a\n"},
			command: func(f *fixture) {
				f.write(map[string]string{".git/config": "[core]\n\thooksPath = /tmp/x\n", ".git/hooks/pre-commit": "#!/bin/sh\n"})
				f.sh("rm .git/HEAD")
			},
			want: map[string]file{
				".git/config":           {wire.OpModified, false, "git config"},
				".git/hooks/pre-commit": {wire.OpCreated, false, "git hook"},
				".git/HEAD":             {wire.OpDeleted, false, ""},
			},
		},
		{
			name:  "made executable, and a new script",
			files: map[string]string{"run.sh": "echo hi\n"},
			command: func(f *fixture) {
				f.sh("chmod +x run.sh && printf x > new.sh && chmod +x new.sh && printf y > plain.txt")
			},
			want: map[string]file{
				"run.sh":    {wire.OpModified, true, "made executable"},
				"new.sh":    {wire.OpCreated, true, "executable"},
				"plain.txt": {wire.OpCreated, true, ""},
			},
		},
		{
			name:    "over the size limit",
			files:   map[string]string{"big.bin": strings.Repeat("x", 70<<10)},
			command: func(f *fixture) { f.write(map[string]string{"big.bin": strings.Repeat("y", 70<<10)}) },
			want:    map[string]file{"big.bin": {wire.OpModified, false, ""}},
			note:    "over 64 KiB",
		},
		{
			name:  "ignored files",
			files: map[string]string{".gitignore": "*.log\nnode_modules/\n", "node_modules/.keep": ""},
			command: func(f *fixture) {
				f.write(map[string]string{"build.log": "x", "node_modules/pkg/index.js": "y"})
				f.sh("mkdir -p node_modules/.bin && ln -s ../pkg/index.js node_modules/.bin/tool")
			},
			want: map[string]file{
				"build.log":                 {wire.OpCreated, false, ""},
				"node_modules/pkg/index.js": {wire.OpCreated, false, ""},
				"node_modules/.bin/tool":    {wire.OpCreated, false, "npm program"},
			},
		},
		{
			name: "settings made where none were",
			command: func(f *fixture) {
				f.write(map[string]string{".claude/settings.json": "{}", ".mcp.json": "{}", ".envrc": "x", "sub/.pilot/agents/a.md": "x"})
			},
			want: map[string]file{
				".claude/settings.json":  {wire.OpCreated, true, "Claude Code"},
				".mcp.json":              {wire.OpCreated, true, "MCP"},
				".envrc":                 {wire.OpCreated, true, "direnv"},
				"sub/.pilot/agents/a.md": {wire.OpCreated, true, "Claude Code"},
			},
		},
		{
			name:   "over the file count",
			limits: Limits{MaxFiles: 3},
			command: func(f *fixture) {
				f.write(map[string]string{"f1": "1", "f2": "2", "f3": "3", "f4": "4"})
				f.sh("printf x > f5 && chmod +x f5")
			},
			want: map[string]file{
				"f1": {wire.OpCreated, true, ""}, "f2": {wire.OpCreated, true, ""}, "f3": {wire.OpCreated, true, ""},
				"f4": {wire.OpCreated, false, ""}, "f5": {wire.OpCreated, false, "executable"},
			},
			note: "The command changed 5 of the project's files; only the first 3 are recorded and can be reverted, the others are listed without being kept.",
		},
		{
			name:   "over the listed limit: what can run code first",
			files:  map[string]string{".gitignore": "out/\n"},
			limits: Limits{MaxListed: 2},
			command: func(f *fixture) {
				f.write(map[string]string{"out/a": "a", "out/b": "b", "out/c": "c", "out/node_modules/.bin/zz": "z"})
				f.sh("printf x > out/zz.sh && chmod +x out/zz.sh")
			},
			want: map[string]file{
				"out/node_modules/.bin/zz": {wire.OpCreated, false, "npm program"},
				"out/zz.sh":                {wire.OpCreated, false, "executable"},
			},
			omitted: 3,
			note:    "3 more files changed are not listed (over the 2 listed per command).",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.files)
			if tc.limits != (Limits{}) {
				lim := Limits{MaxFileBytes: 64 << 10, MaxFiles: 50}
				if tc.limits.MaxFiles > 0 {
					lim.MaxFiles = tc.limits.MaxFiles
				}
				lim.MaxListed = tc.limits.MaxListed
				f.openWith(lim)
			}
			cp := f.command(func() { tc.command(f) })
			v := CheckpointView(cp)
			got, listed := map[string]file{}, map[string]bool{}
			for _, e := range v.Files {
				got[e.Path] = file{e.Op, e.Kept, e.RunsCode}
				listed[e.Path] = e.Listed
				if e.Listed && e.Kept {
					t.Errorf("%s: listed and kept", e.Path)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("listed %d files, want %d:\n got %v\nwant %v", len(got), len(tc.want), got, tc.want)
			}
			for p, w := range tc.want {
				g, ok := got[p]
				switch {
				case !ok:
					t.Errorf("%s not listed (got %v)", p, got)
				case g.op != w.op || g.kept != w.kept || (w.runsCode == "") != (g.runsCode == "") || !strings.Contains(g.runsCode, w.runsCode):
					t.Errorf("%s: %s kept=%v runs code %q; want %s kept=%v runs code %q", p, g.op, g.kept, g.runsCode, w.op, w.kept, w.runsCode)
				}
			}
			if v.Omitted != tc.omitted || !strings.Contains(v.Note, tc.note) {
				t.Errorf("omitted %d, note %q; want %d and %q", v.Omitted, v.Note, tc.omitted, tc.note)
			}
			// The session's ledger shows the same, and says what cannot be
			// diffed or reverted.
			l, err := f.lg.View(f.ctx, f.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, lf := range l.Files {
				w, ok := tc.want[lf.Path]
				if !ok {
					t.Errorf("the Changes view lists %s", lf.Path)
					continue
				}
				if lf.Kind != w.op || lf.Listed != listed[lf.Path] || (lf.RunsCode == "") != (w.runsCode == "") {
					t.Errorf("Changes view: %+v, want %+v", lf, w)
				}
				if !lf.Listed {
					continue
				}
				d, err := f.lg.FileDiff(f.ctx, f.sess.ID, lf.Path)
				if err != nil || d.Missing == "" || len(d.Hunks) != 0 {
					t.Errorf("%s: diff %+v, %v; want none, and why", lf.Path, d, err)
				}
				if _, err := f.lg.RevertFile(f.ctx, f.sess.ID, lf.Path, nil); err == nil || !strings.Contains(err.Error(), "cannot be reverted") {
					t.Errorf("%s: reverting it: %v", lf.Path, err)
				}
			}
		})
	}
}

// TestRevertLeavesListedFiles: reverting (or rewinding) a command puts
// back the files the ledger kept and leaves those it only listed as they
// are, and its result says which, what can run code first.
func TestRevertLeavesListedFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{".gitignore": "*.log\n", "a.txt": "a\n"})
	msg := f.say("make things")
	cp := f.command(func() {
		f.write(map[string]string{"a.txt": "b\n", "x.log": "log\n", "sub/.git/hooks/pre-commit": "#!/bin/sh\n"})
	})
	res, err := f.lg.RevertCheckpointFor(f.ctx, cp.ID, none())
	if err != nil || !res.Done {
		t.Fatalf("%+v %v", res, err)
	}
	if got := f.read("a.txt"); got != "a\n" {
		t.Errorf("a.txt = %q, want it back", got)
	}
	for _, p := range []string{"x.log", "sub/.git/hooks/pre-commit"} {
		if _, err := os.Stat(filepath.Join(f.dir, p)); err != nil {
			t.Errorf("%s: %v, want it left as it is", p, err)
		}
	}
	if len(res.Restored) != 1 || res.Restored[0].Path != "a.txt" {
		t.Errorf("restored %+v, want a.txt only", res.Restored)
	}
	// The result says so, what can run code first.
	const want = "Reverted Running a command: 1 file restored. 3 files the undone steps changed were not kept and are left as they are: " +
		"sub/.git (can run code: a new git repository: git runs its hooks and config here), sub/.git/hooks/pre-commit (can run code: a git hook), x.log."
	if res.Message != want {
		t.Errorf("message %q\nwant    %q", res.Message, want)
	}
	if len(res.NotKept) != 3 || !res.NotKept[1].Listed || res.NotKept[1].RunsCode == "" {
		t.Errorf("not kept %+v", res.NotKept)
	}
	// A rewind says the same.
	rw, err := f.lg.RewindSession(f.ctx, f.sess.ID, msg, wire.RewindCode, none())
	if err != nil || !strings.Contains(rw.Message, "3 files the undone steps changed were not kept and are left as they are: sub/.git (can run code") {
		t.Errorf("rewind: %q, %v", rw.Message, err)
	}
}

// sh runs a shell command in the project, as run_bash would.
func (f *fixture) sh(command string) {
	f.t.Helper()
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = f.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("%s: %v: %s", command, err, out)
	}
}

// openWith reopens the ledger with other limits.
func (f *fixture) openWith(lim Limits) {
	lg, err := Open(filepath.Join(f.home, "checkpoints"), f.st, lim, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.lg = lg
	f.t.Cleanup(lg.Close)
}
