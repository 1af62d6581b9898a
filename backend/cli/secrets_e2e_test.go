package cli

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/config"
	"pilot/backend/internal/fakellm"
)

// serveUnixHTTP listens on a unix socket at p and answers every request
// with body, as Docker's API would answer _ping.
func serveUnixHTTP(t *testing.T, p, body string) {
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
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				_, _ = bufio.NewReader(c).ReadString('\n')
				_, _ = io.WriteString(c, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"+body)
			}()
		}
	}()
}

// Finding 7 of issue 36, on the production binary: a unix socket a
// program listens on under the home (Docker Desktop's
// ~/.docker/desktop/docker.sock and ~/.docker/run/docker.sock) cannot be
// reached by a sandboxed command, through curl --unix-socket or python,
// under --approve edits; one the user allows (sandboxSockets) can.
func TestHeadlessHomeSocketsCovered(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := sandboxHome(t)
	serveUnixHTTP(t, filepath.Join(home, ".docker", "desktop", "docker.sock"), "DESKTOP-DOCKER-ANSWERED")
	serveUnixHTTP(t, filepath.Join(home, ".docker", "run", "docker.sock"), "RUN-DOCKER-ANSWERED")
	serveUnixHTTP(t, filepath.Join(home, ".colima", "default", "docker.sock"), "COLIMA-ANSWERED")
	data := filepath.Join(home, ".config", "pilot")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := config.SaveSettings(data, config.Settings{SandboxSockets: []string{"~/.colima"}}); err != nil {
		t.Fatal(err)
	}
	dir := tempProject(t, map[string]string{"a.txt": "A\n"})
	py := `python3 -c "import socket,sys,os; s=socket.socket(socket.AF_UNIX); s.connect(os.path.expanduser(sys.argv[1])); s.sendall(b'GET /_ping HTTP/1.0\r\n\r\n'); print(s.recv(200).decode())" `
	results, stderr := sandboxRun(t, "edits", dir, home, []fakellm.ToolCall{
		bashCall("curl-desktop", "curl -sS --unix-socket ~/.docker/desktop/docker.sock http://d/_ping"),
		bashCall("curl-run", "curl -sS --unix-socket ~/.docker/run/docker.sock http://d/_ping"),
		bashCall("py-desktop", py+"~/.docker/desktop/docker.sock"),
		bashCall("py-run", py+"~/.docker/run/docker.sock"),
		bashCall("allowed", "curl -sS --unix-socket ~/.colima/default/docker.sock http://d/_ping"),
	})
	for _, id := range []string{"curl-desktop", "curl-run", "py-desktop", "py-run"} {
		got := results[id].Content
		if strings.Contains(got, "DOCKER-ANSWERED") {
			t.Errorf("%s reached the host's socket:\n%s", id, got)
		}
		if !strings.Contains(got, "is a unix socket of a program on this machine") {
			t.Errorf("%s: the result does not say the sandbox covers the socket:\n%s", id, got)
		}
	}
	if got := results["allowed"].Content; !strings.Contains(got, "COLIMA-ANSWERED") {
		t.Errorf("the allowed socket was not reached:\n%s\n%s", got, stderr)
	}
}

// Finding 10.2 of issue 36, on the production binary: the credential
// files people have are hidden from a sandboxed command, each holding a
// canary.
func TestHeadlessCredentialsHidden(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := sandboxHome(t)
	files := []string{
		".git-credentials", ".config/git/credentials", ".npmrc", ".yarnrc.yml", ".pypirc",
		".cargo/credentials.toml", ".cargo/credentials", ".claude/.credentials.json", ".codex/auth.json",
		".bash_history", ".zsh_history", ".local/share/fish/fish_history", ".python_history",
		".node_repl_history", ".psql_history", ".mysql_history", ".azure/msal_token_cache.json", ".config/hub",
		".terraform.d/credentials.tfrc.json", ".gem/credentials",
	}
	var calls []fakellm.ToolCall
	for i, f := range files {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("CANARY-"+f+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, bashCall("c"+string(rune('a'+i)), `cat ~/`+f+`; cp ~/`+f+` ./stolen 2>&1; cat ./stolen 2>&1; true`))
	}
	dir := tempProject(t, map[string]string{"a.txt": "A\n"})
	results, _ := sandboxRun(t, "edits", dir, home, calls)
	for i, f := range files {
		if got := results["c"+string(rune('a'+i))].Content; strings.Contains(got, "CANARY-") {
			t.Errorf("a sandboxed command read ~/%s:\n%s", f, got)
		}
	}
}
