package cli

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// needServer skips a test whose language server is not installed (`make
// deps` installs gopls and typescript-language-server); under CI a
// missing one fails.
func needServer(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not on PATH; make deps installs it", name)
		}
		t.Skipf("%s is not on PATH (make deps installs it)", name)
	}
}

// The acceptance of issue 27's diagnostics, headless through the real
// binary and real language servers: a scripted model writes a file, and
// the tool result it receives ends with what the server said — the file,
// the line and the error for a broken change, "no errors" for a correct
// one — and the tool's line on stderr sums it up.
func TestDiagnosticsBinary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, server string
		files        map[string]string
		path, text   string
		want         []string // in the tool result the model receives
		stderr       string
	}{
		{
			name: "go undefined", server: "gopls",
			files: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"},
			path:  "a.go", text: "package main\n\nfunc f() {\n\tfrob()\n}\n",
			want:   []string{"Diagnostics after this change (gopls):\na.go:4:2: error: undefined: frob"},
			stderr: "1 error after this change (a.go:4:2: undefined: frob)",
		},
		{
			name: "typescript type error", server: "typescript-language-server",
			files: map[string]string{"tsconfig.json": `{"compilerOptions":{"strict":true,"noEmit":true}}` + "\n"},
			path:  "a.ts", text: "export const n: number = \"seven\";\n",
			want:   []string{"Diagnostics after this change (typescript-language-server):\na.ts:1:14: error: Type 'string' is not assignable to type 'number'."},
			stderr: "1 error after this change (a.ts:1:14:",
		},
		{
			name: "go correct", server: "gopls",
			files: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"},
			path:  "ok.go", text: "package main\n\nfunc g() int { return 1 }\n",
			want:   []string{"Diagnostics after this change (gopls):\nNo errors or warnings in the changed files."},
			stderr: "No errors after this change.",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			needServer(t, c.server)
			input := `{"path":` + quoteJSON(c.path) + `,"content":` + quoteJSON(c.text) + `}`
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{ID: "w", Name: "write_file", Input: []byte(input)}}},
				{Text: "Written."},
			}})
			defer srv.Close()
			home := t.TempDir()
			dir := tempProject(t, c.files)
			cmd := command(t, srv, home, "-p", "write the file", "--project", dir, "--approve", "all")
			// A cold server on a loaded machine takes longer than the
			// default wait to load (typescript-language-server ~10 s here).
			cmd.Env = append(cmd.Env, "PILOT_LSP_WAIT=60", "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || len(reqs[1].ToolResults) != 1 {
				t.Fatalf("%d requests; stderr:\n%s", len(reqs), stderr.String())
			}
			got := reqs[1].ToolResults[0].Content
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("the tool result the model received:\n%s\nwant it to hold:\n%s", got, w)
				}
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr:\n%s\nwant a line with %q", stderr.String(), c.stderr)
			}
		})
	}
}

// goEnv is the go command's value of name, so the servers the binary
// starts share the machine's build and module caches (a fresh HOME would
// make gopls load everything again).
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
