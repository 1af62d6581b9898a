package mcp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	env := map[string]string{"A": "1", "EMPTY": ""}
	look := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var missing []string
	for in, want := range map[string]string{
		"x${A}y":          "x1y",
		"${B:-def}":       "def",
		"${A:-def}":       "1",
		"${EMPTY:-def}":   "def",
		"${EMPTY}":        "",
		"${NOPE}/z":       "/z",
		"no vars":         "no vars",
		"${unterminated":  "${unterminated",
		"$A and ${A}${A}": "$A and 11",
		"${B:-a:-b}-${A}": "a:-b-1",
	} {
		if got := ExpandString(in, look, &missing); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
	if strings.Join(missing, ",") != "NOPE" {
		t.Errorf("missing %v", missing)
	}
	x := Expand(Server{Command: "${A}", Args: []string{"${A}"}, Env: map[string]string{"K": "${A}"}, URL: "http://h/${A}", Headers: map[string]string{"H": "${A}"}, Cwd: "${A}"}, look)
	if x.Command != "1" || x.Args[0] != "1" || x.Env["K"] != "1" || x.URL != "http://h/1" || x.Headers["H"] != "1" || x.Cwd != "1" {
		t.Errorf("expand %+v", x)
	}
}

func TestProviderKeysAreNotExpanded(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	if got := ExpandString("${ANTHROPIC_API_KEY:-none}", EnvLookup, nil); got != "none" {
		t.Fatalf("got %q", got)
	}
}

func TestClaudeCodeFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ProjectFile), []byte(`{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": {"X": "1"}},
		"web": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"old": {"type": "sse", "url": "https://example.com/sse"}
	}, "other": true}`), 0o644)
	home := t.TempDir()
	if err := WriteScope(home, "", ScopeUser, File{Servers: map[string]Server{"mine": {Command: "my-server"}, "fs": {Command: "shadowed"}}}); err != nil {
		t.Fatal(err)
	}
	set, err := Load(home, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Entry{}
	for _, e := range set.Entries {
		got[e.Name] = e
	}
	if len(got) != 4 || got["fs"].Scope != ScopeProject || got["mine"].Scope != ScopeUser || set.ProjectHash == "" {
		t.Fatalf("%+v", set)
	}
	if got["web"].Server.Transport() != TypeHTTP || got["old"].Server.Transport() != TypeSSE || got["fs"].Server.Transport() != TypeStdio {
		t.Fatalf("transports %+v", got)
	}
	if d := Display(got["fs"].Server, EnvLookup); d != "X=1 npx -y @modelcontextprotocol/server-filesystem ." {
		t.Fatalf("display %q", d)
	}
	// Writing keeps the other keys.
	f, _, _ := ReadProject(dir)
	delete(f.Servers, "old")
	if err := WriteScope(home, dir, ScopeProject, f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(ProjectPath(dir))
	if !strings.Contains(string(b), `"other": true`) || strings.Contains(string(b), `"old"`) {
		t.Fatalf("written %s", b)
	}
}

func TestUntrustedProjectRunsNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server is sh -c touch, and Windows has no sh")
	}
	home, dir := t.TempDir(), t.TempDir()
	marker := filepath.Join(dir, "ran")
	WriteFile(ProjectPath(dir), File{Servers: map[string]Server{"p": {Command: "sh", Args: []string{"-c", "touch " + marker}}}})
	h, _ := Open(dir, testOptions(home))
	defer h.Close()
	need, set := h.NeedsTrust()
	if !need || len(set.Entries) != 1 {
		t.Fatalf("needs trust %v %+v", need, set)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted .mcp.json ran its command")
	}
	if st := h.Status(); st[0].State != Disabled || !strings.Contains(st[0].Error, "trust") {
		t.Fatalf("status %+v", st)
	}
	if err := h.Trust("wrong"); err == nil {
		t.Fatal("trusted a hash that is not the file's")
	}
	if err := h.Trust(set.ProjectHash); err != nil {
		t.Fatal(err)
	}
	waitFile(t, marker)
	// A changed file asks again.
	WriteFile(ProjectPath(dir), File{Servers: map[string]Server{"p": {Command: "sh", Args: []string{"-c", "touch " + marker + "2"}}}})
	h2, _ := Open(dir, testOptions(home))
	defer h2.Close()
	if need, _ := h2.NeedsTrust(); !need {
		t.Fatal("a changed .mcp.json was trusted without asking")
	}
}

func TestServerNames(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{"fs": true, "my-server_2": true, "a__b": false, "a b": false, "": false} {
		if (ValidName(name) == nil) != ok {
			t.Errorf("%q: %v", name, ValidName(name))
		}
	}
	if n := ToolName("s", "get.thing/x"); n != "mcp__s__get_thing_x" {
		t.Errorf("%q", n)
	}
}

// WriteFile writes f as the configuration file at path (a fixture).
func WriteFile(path string, f File) error {
	out, err := merge(path, nil, f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
