//go:build linux

package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listenAt listens on a unix socket at p, answering every connection with
// "hello", until the test ends.
func listenAt(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
}

// TestSocketsAllowed: the sockets under the home are covered, but those
// Policy.AllowSockets names (a socket, or a folder of them) are reached;
// Explain names a covered one a command failed to reach.
func TestSocketsAllowed(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	py := realPython(t)
	base := t.TempDir()
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	socks := map[string]bool{ // path under the home -> allowed
		".docker/run/docker.sock":      true,
		".colima/default/docker.sock":  true, // by its folder
		".docker/desktop/docker.sock":  false,
		".config/some-tool/agent.sock": false, // found by /proc/net/unix only
	}
	for rel := range socks {
		listenAt(t, filepath.Join(home, rel))
	}
	p := Policy{Project: proj, Home: home, AllowSockets: []string{"~/.docker/run/docker.sock", "~/.colima"}}
	s := NewSession(p)
	defer s.Close()
	for rel, allowed := range socks {
		out, _ := run(t, s, proj, baseEnv(home), py+` -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(10).decode().strip())" "$HOME/`+rel+`"`)
		if got := strings.Contains(out, "hello"); got != allowed {
			t.Errorf("%s: reached %v, want %v:\n%s", rel, got, allowed, out)
		}
		if allowed {
			continue
		}
		command := `curl -s --unix-socket ~/` + rel + ` http://d/`
		says := Explain(p, command, "curl: (7) Couldn't connect to server\n")
		if !slices.ContainsFunc(says, func(s string) bool {
			return strings.Contains(s, "~/"+rel+" is a unix socket") && strings.Contains(s, "Settings › Sandbox")
		}) {
			t.Errorf("Explain for %s: %q", rel, says)
		}
	}
	if says := Explain(p, `curl -s --unix-socket ~/.docker/run/docker.sock http://d/`, "curl: (7) Couldn't connect to server\n"); slices.ContainsFunc(says, func(s string) bool {
		return strings.Contains(s, "unix socket")
	}) {
		t.Errorf("Explain names an allowed socket: %q", says)
	}
}

// listeningSockets reads /proc/net/unix's path column: pathname sockets
// only, a padded inode and a path with a space included.
func TestListeningSocketsParse(t *testing.T) { // not parallel: it replaces procNetUnix
	f := filepath.Join(t.TempDir(), "unix")
	text := "Num       RefCount Protocol Flags    Type St Inode Path\n" +
		"0000000021fa9dc8: 00000002 00000000 00010000 0001 01  1111 /home/u/.docker/run/docker.sock\n" +
		"0000000021fa9dc9: 00000002 00000000 00010000 0001 01 22222 @/tmp/.X11-unix/X0\n" +
		"0000000021fa9dca: 00000003 00000000 00000000 0001 03  3333\n" +
		"0000000021fa9dcb: 00000002 00000000 00010000 0001 01  4444 /home/u/My Files/app.sock\n" +
		"0000000021fa9dcc: 00000002 00000000 00010000 0001 01  5555 relative.sock\n"
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old string) { procNetUnix = old }(procNetUnix)
	procNetUnix = f
	want := []string{"/home/u/.docker/run/docker.sock", "/home/u/My Files/app.sock"}
	if got := listeningSockets(); !slices.Equal(got, want) {
		t.Errorf("listeningSockets = %q, want %q", got, want)
	}
}
