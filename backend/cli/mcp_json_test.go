package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestMCPJSONShapes: pilot mcp list --json (a line per server) and pilot
// mcp get NAME --json decode strictly into wire.MCPStatus, a server that
// cannot start included.
func TestMCPJSONShapes(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		env := map[string]string{"PILOT_HOME": home}
		code := Run(context.Background(), append([]string{"mcp"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
		if code != 0 {
			t.Fatalf("pilot mcp %v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	missing := filepath.Join(dir, "no-such-server")
	if out := run("add", "broken", "--env", "TOKEN=${SECRET}", "--", missing, "--flag"); !strings.Contains(out, "Added the user server broken in "+filepath.Join(home, "mcp.json")) {
		t.Fatalf("add: %s", out)
	}
	ls := decodeLines[wire.MCPStatus](t, run("list", "--project", dir, "--json"))
	if len(ls) != 1 || ls[0].Name != "broken" || ls[0].State != "failed" || ls[0].Error == "" ||
		ls[0].Server.Command != missing || ls[0].Server.Env["TOKEN"] != "${SECRET}" {
		t.Fatalf("list --json: %+v", ls)
	}
	if s := decodeStrict[wire.MCPStatus](t, run("get", "broken", "--project", dir, "--json")); s.Name != "broken" || s.Scope != "user" {
		t.Errorf("get --json: %+v", s)
	}
}
