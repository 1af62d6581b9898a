package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The macOS profiles made from a Policy, against testdata/NAME.sb: the
// profile sandbox-exec is given, after comment lines naming its
// parameters (the test's folder written /ROOT). Run with
// PILOT_UPDATE_GOLDEN=1 to rewrite them after a deliberate change, and
// read the diff. They cannot be run here; on a Mac, each is a valid
// profile: sandbox-exec -f FILE -D NAME=PATH ... -- bash -c CMD.
func TestSeatbeltProfilesFromThePolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// project is the project folder under the home; port the proxy's.
		project string
		port    int
		sockets []string
	}{
		// The usual session: a repository in the home, network through
		// the proxy, secrets in the home hidden, .git and .claude read-only.
		{name: "project", project: "code/app", port: 41234},
		// A worktree session: the project lies in the hidden PILOT_HOME;
		// no network; one unix socket allowed.
		{name: "worktree", project: ".pilot/worktrees/s1", sockets: []string{"~/.colima/default/docker.sock"}},
		// The home opened as the project: its secrets are hidden inside
		// the writable root.
		{name: "home", project: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := realDir(t)
			home := filepath.Join(root, "home")
			proj := filepath.Join(home, tc.project)
			for _, d := range []string{".ssh", ".aws", ".pilot/worktrees/s1", "code/app/.git", "code/app/.claude", ".pilot/worktrees/s1/.claude", ".cache/pilot", "tmp/pod/tmp"} {
				mkdir(t, filepath.Join(home, d))
			}
			for _, f := range []string{".ssh/id_ed25519", ".aws/credentials", ".netrc", "code/app/.mcp.json"} {
				if err := os.WriteFile(filepath.Join(home, f), []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			p := Policy{
				Project: proj, Home: home, PilotHome: filepath.Join(home, ".pilot"),
				Cache:        filepath.Join(home, ".cache/pilot"),
				Guarded:      []string{filepath.Join(proj, ".claude"), filepath.Join(proj, ".mcp.json")},
				Git:          GitPaths{ReadOnly: []string{filepath.Join(proj, ".git")}},
				AllowSockets: tc.sockets,
			}
			if tc.port != 0 {
				p.Proxy = func(context.Context, net.Conn) {}
			}
			sp := seatbeltSpecFor(p, filepath.Join(home, "tmp/pod/tmp"), filepath.Join(home, "tmp"), tc.port).profile()
			var b strings.Builder
			b.WriteString("; Made by backend/sandbox/seatbelt.go (TestSeatbeltProfilesFromThePolicy); the parameters:\n")
			for _, prm := range sp.Params {
				b.WriteString(";   -D" + prm.Name + "=" + strings.Replace(prm.Path, root, "/ROOT", 1) + "\n")
			}
			b.WriteString(sp.Text)
			got := b.String()
			if strings.Contains(sp.Text, root) {
				t.Errorf("a path is in the profile's text, not a parameter:\n%s", sp.Text)
			}
			file := filepath.Join("testdata", tc.name+".sb")
			if os.Getenv("PILOT_UPDATE_GOLDEN") == "1" {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (PILOT_UPDATE_GOLDEN=1 writes it)", err)
			}
			if got != string(want) {
				t.Errorf("the profile differs from %s (PILOT_UPDATE_GOLDEN=1 rewrites it; read the diff):\n%s", file, got)
			}
		})
	}
}

// The rules the golden files hold, said once more so that a golden file
// rewritten in haste cannot drop them: each hidden path is out of the
// reads and, inside a writable root, out of the writes; read-only paths
// are out of the writes; the network is the proxy's port alone.
func TestSeatbeltProfileKeepsThePolicysPromises(t *testing.T) {
	t.Parallel()
	sp := seatbeltSpec{
		writable: []string{"/p", "/t"},
		readOnly: []string{"/p/.git"},
		hidden:   []string{"/h/.ssh", "/p/secret"},
		port:     5000,
	}.profile()
	param := map[string]string{}
	for _, p := range sp.Params {
		param[p.Path] = `(param "` + p.Name + `")`
	}
	reads := section(sp.Text, "(allow file-read*\n  (require-all (subpath \"/\")")
	for _, h := range []string{"/h/.ssh", "/p/secret"} {
		if !strings.Contains(reads, "(require-not (subpath "+param[h]+"))") {
			t.Errorf("%s is readable:\n%s", h, reads)
		}
	}
	writes := section(sp.Text, "(allow file-write*\n  (require-all (subpath "+param["/p"]+")")
	for _, x := range []string{"/p/.git", "/p/secret"} {
		if !strings.Contains(writes, "(require-not (subpath "+param[x]+"))") || !strings.Contains(writes, "(require-not (literal "+param[x]+"))") {
			t.Errorf("%s is writable:\n%s", x, writes)
		}
	}
	if !strings.Contains(sp.Text, "(deny default)") || !strings.Contains(sp.Text, `(allow network-outbound (remote ip "localhost:5000"))`) {
		t.Errorf("not closed by default, or the proxy's port is not the way out:\n%s", sp.Text)
	}
	if n := strings.Count(sp.Text, "(allow network-outbound"); n != 1 {
		t.Errorf("%d network-outbound rules, want the proxy's alone:\n%s", n, sp.Text)
	}
	if none := (seatbeltSpec{writable: []string{"/p"}}).profile().Text; strings.Contains(none, "network-outbound") || strings.Contains(none, "system-socket") {
		t.Errorf("without a proxy the profile still opens the network:\n%s", none)
	}
}

// section is the rule of text that starts with start, up to its closing
// parenthesis.
func section(text, start string) string {
	i := strings.Index(text, start)
	if i < 0 {
		return ""
	}
	depth := 0
	for j, r := range text[i:] {
		switch r {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return text[i : i+j+1]
			}
		}
	}
	return text[i:]
}

// realDir is a temporary folder by its real path (the profile holds real
// paths).
func realDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}
