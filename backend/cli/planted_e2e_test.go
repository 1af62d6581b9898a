package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// plantedPrograms are the programs Pilot (or what it starts) looks up on
// PATH, planted in the project as a command in the sandbox could: each
// leaves a marker when run.
var plantedPrograms = []string{
	"gopls", "go", "node", "typescript-language-server", "pyright-langserver", "basedpyright-langserver",
	"rust-analyzer", "clangd", "git", "rg", "bwrap",
}

// Finding 5 of issue 36, on the production binary: with PATH naming the
// project (an empty entry, ".", "./node_modules/.bin", or absolute entries
// into it), the project's gopls, typescript-language-server, go, node,
// git... never run on the host: not when the model reads and checks a .go
// and a .ts file under --approve none, not for `pilot doctor`. The real
// gopls on an absolute entry outside still serves, and doctor says where
// the project's copy was and why it was not run.
func TestProjectsProgramsNeverRunBinary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		path func(dir string) string
	}{
		{"relative entries", func(string) string { return "./node_modules/.bin:.:" + os.Getenv("PATH") + ":" }},
		{"absolute entries into the project", func(dir string) string {
			return filepath.Join(dir, "node_modules", ".bin") + ":" + dir + ":" + os.Getenv("PATH")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			marks := t.TempDir()
			// The servers may still be writing their caches under the
			// home as Pilot stops them: removed without failing the test.
			dir, home := looseTemp(t), looseTemp(t)
			for name, text := range map[string]string{
				"go.mod":  "module example.com/m\n\ngo 1.22\n",
				"main.go": "package main\n\nfunc main() { undefinedFn() }\n",
				"a.ts":    "export const n: number = 1;\n",
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range plantedPrograms {
				for _, sub := range []string{"", filepath.Join("node_modules", ".bin")} {
					p := filepath.Join(dir, sub, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					script := "#!/bin/sh\necho \"$0 $*\" >> " + filepath.Join(marks, "ran") + "\nexit 1\n"
					if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			call := func(id, name, path string) fakellm.ToolCall {
				return fakellm.ToolCall{ID: id, Name: name, Input: []byte(`{"path":"` + path + `"}`)}
			}
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{call("rg", "read_file", "main.go"), call("rt", "read_file", "a.ts")}},
				{ToolCalls: []fakellm.ToolCall{call("dg", "diagnostics", "main.go"), call("dt", "diagnostics", "a.ts")}, When: &fakellm.When{ToolResultContains: "package main"}},
				{Text: "Read.", When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			env := func(cmd *exec.Cmd) {
				cmd.Dir = dir // relative entries name the project's folders
				for i, kv := range cmd.Env {
					if strings.HasPrefix(kv, "PATH=") {
						cmd.Env[i] = "PATH=" + c.path(dir)
					}
				}
				cmd.Env = append(cmd.Env, "PILOT_LSP_WAIT=60", "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
			}
			cmd := command(t, srv, home, "-p", "read main.go and a.ts", "--project", dir, "--approve", "none")
			env(cmd)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("pilot -p: %v\n%s", err, stderr.String())
			}
			results := map[string]string{}
			for _, r := range srv.Requests() {
				for _, tr := range r.ToolResults {
					results[tr.ToolUseID] = tr.Content
				}
			}
			real, realErr := exec.LookPath("gopls")
			if realErr == nil && !strings.Contains(results["dg"], "undefined: undefinedFn") {
				t.Errorf("the real gopls (%s) did not serve main.go: %q\n%s", real, results["dg"], stderr.String())
			}

			doctor := exec.Command(pilotBinary(t), "doctor")
			doctor.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + home}
			env(doctor)
			out, _ := doctor.CombinedOutput()
			if realErr == nil && !strings.Contains(string(out), real) {
				t.Errorf("doctor does not name the real gopls at %s:\n%s", real, out)
			}
			if !strings.Contains(string(out), "was found only at") || !strings.Contains(string(out), "Pilot does not run programs from there") {
				t.Errorf("doctor does not say where the project's servers were and why they did not run:\n%s", out)
			}
			if b, err := os.ReadFile(filepath.Join(marks, "ran")); err == nil {
				t.Fatalf("the project's programs ran on the host:\n%s\n--- pilot -p:\n%s--- doctor:\n%s", b, stderr.String(), out)
			}
		})
	}
}

// looseTemp is a temporary folder removed at the end, as far as it can be.
func looseTemp(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "pilot-e2e-loose-")
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}
