//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/proctest"
)

// Commands of one session share the pod: a server one starts is reached
// by the next, over the pod's own loopback.
func TestSessionSharesOnePod(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	proj, home := t.TempDir(), t.TempDir()
	s := NewSession(Policy{Project: proj, Home: home})
	defer s.Close()
	// A server left running by one command (it left the command's group,
	// so the group kill after its exit spares it) is reached by the next.
	out, code := run(t, s, proj, baseEnv(home), `setsid python3 -c '
import socket,os,sys
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(1)
open("port2","w").write(str(s.getsockname()[1])); sys.stdout.close(); sys.stderr.close(); os.close(1); os.close(2)
c,_=s.accept(); c.sendall(b"hello from an earlier command"); c.close()
' >/dev/null 2>&1 & while [ ! -s port2 ]; do sleep 0.01; done; echo up`)
	if code != 0 {
		t.Fatalf("%d %s", code, out)
	}
	pid := s.PodPID()
	out, _ = run(t, s, proj, baseEnv(home), `exec 3<>/dev/tcp/127.0.0.1/$(cat port2) && cat <&3`)
	if !strings.Contains(out, "hello from an earlier command") || s.PodPID() != pid {
		t.Fatalf("the server of an earlier command was not reached: %s", out)
	}
}

// The pod killed from outside: the command running in it fails with a
// sentence, and the next Start starts a new pod.
func TestSessionPodDiesAndRestarts(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	proj, home := t.TempDir(), t.TempDir()
	s := NewSession(Policy{Project: proj, Home: home})
	defer s.Close()
	pr, pw, _ := os.Pipe()
	defer pr.Close()
	p, err := s.Start(context.Background(), Cmd{Command: "echo up; sleep 600", Dir: proj, Env: baseEnv(home), Output: pw})
	pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(pr).ReadString('\n'); line != "up\n" {
		t.Fatalf("read %q", line)
	}
	first := s.PodPID()
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if err == nil || code != -1 || !strings.Contains(err.Error(), "the sandbox's pod ended") {
		t.Fatalf("Wait after the pod died: %d %v", code, err)
	}
	out, code := run(t, s, proj, baseEnv(home), "echo again")
	if code != 0 || out != "again\n" {
		t.Fatalf("after a restart: %d %q", code, out)
	}
	if second := s.PodPID(); second == 0 || second == first {
		t.Fatalf("pod pid %d, was %d", second, first)
	}
}

// Close ends every process of the pod (background ones, and ones that
// left the command's group) and removes the private temporary folder.
func TestSessionCloseLeavesNothing(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	proj, home := t.TempDir(), t.TempDir()
	s := NewSession(Policy{Project: proj, Home: home})
	mark := fmt.Sprint(600 + time.Now().UnixNano()%100000)
	// A background job started by a command outlives it only if it leaves
	// the group; this one does.
	// It says it is ready once setsid has made it leave the group (before
	// that, the group kill at the command's end would take it along).
	out, code := run(t, s, proj, baseEnv(home), `setsid bash -c 'touch "$TMPDIR/ready"; exec sleep `+mark+`' >/dev/null 2>&1 & while [ ! -e "$TMPDIR/ready" ]; do sleep 0.01; done; echo $TMPDIR`)
	if code != 0 {
		t.Fatal(out)
	}
	tmp := strings.TrimSpace(out)
	// Wait until it has become the sleep (a condition, bounded for a
	// broken pod).
	for deadline := time.Now().Add(30 * time.Second); len(proctest.WithCmdline("sleep\x00"+mark)) != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if len(proctest.WithCmdline("sleep\x00"+mark)) != 1 {
		t.Fatalf("the background sleep is not running: %v", proctest.WithCmdline("sleep\x00"+mark))
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("TMPDIR %s is not on the host: %v", tmp, err)
	}
	pid := s.PodPID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left := proctest.WithCmdline("sleep\x00" + mark); len(left) != 0 {
		t.Errorf("left after Close: %v", left)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("bwrap %d is still there: %v", pid, err)
	}
	if _, err := os.Stat(filepath.Dir(tmp)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pod's folder %s is still there: %v", filepath.Dir(tmp), err)
	}
	if _, err := s.Start(context.Background(), Cmd{Command: "true", Dir: proj, Output: os.Stdout}); err == nil {
		t.Error("Start after Close worked")
	}
}

// With a proxy, a command reaches it at HTTP_PROXY, through the pod's
// bridge and Pilot's unix socket; NO_PROXY keeps local servers direct.
func TestSessionProxyBridge(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	proj, home := t.TempDir(), t.TempDir()
	got := make(chan string, 1)
	s := NewSession(Policy{Project: proj, Home: home, Proxy: func(ctx context.Context, c net.Conn) {
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		got <- line
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nproxied\n")
	}})
	defer s.Close()
	out, code := run(t, s, proj, append(baseEnv(home), "HTTP_PROXY=http://user:pw@elsewhere:1"), `echo "$HTTP_PROXY $HTTPS_PROXY $no_proxy"; curl -sS http://example.com/x`)
	if code != 0 {
		t.Fatalf("%d %s", code, out)
	}
	if !strings.Contains(out, "proxied") || !strings.Contains(out, "localhost,127.0.0.1,::1") || strings.Contains(out, "elsewhere") {
		t.Fatalf("output: %s", out)
	}
	if line := <-got; !strings.HasPrefix(line, "GET http://example.com/x ") {
		t.Fatalf("the proxy got %q", line)
	}
}

// Without a proxy there are no proxy variables (the user's would mislead).
func TestSessionNoProxyNoVariables(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	proj, home := t.TempDir(), t.TempDir()
	s := NewSession(Policy{Project: proj, Home: home, Cache: filepath.Join(t.TempDir(), "cache")})
	defer s.Close()
	out, _ := run(t, s, proj, append(baseEnv(home), "HTTPS_PROXY=http://corp:3128"), `env | grep -i _proxy; echo "cache=$XDG_CACHE_HOME"; touch "$XDG_CACHE_HOME/c" && echo cache-writable; mkdir -p "$npm_config_cache" && echo npm-cache-writable; go env GOCACHE`)
	if strings.Contains(strings.ToLower(out), "_proxy") || !strings.Contains(out, "cache-writable") || !strings.Contains(out, "npm-cache-writable") || !strings.Contains(out, "cache/go-build") {
		t.Fatalf("output: %s", out)
	}
}

// PILOT_HOME inside the project is hidden in it; a project inside a
// hidden folder stays visible and writable, the rest of the folder hidden.
func TestSessionNesting(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := t.TempDir()
	proj := filepath.Join(home, "work")
	ph := filepath.Join(proj, ".pilot")
	for _, d := range []string{ph, filepath.Join(home, ".config", "gh", "proj"), filepath.Join(home, ".config", "gh", "other")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(ph, "pilot.db"), []byte("db"), 0o600)
	os.WriteFile(filepath.Join(home, ".config", "gh", "other", "hosts.yml"), []byte("token"), 0o600)
	s := NewSession(Policy{Project: proj, Home: home, PilotHome: ph})
	defer s.Close()
	out, _ := run(t, s, proj, baseEnv(home), `cat .pilot/pilot.db && echo READ-PILOT-HOME; echo x > .pilot/new && echo WROTE-PILOT-HOME; echo ok > file && cat file`)
	if strings.Contains(out, "READ-PILOT-HOME") || strings.Contains(out, "WROTE-PILOT-HOME") || !strings.Contains(out, "ok") {
		t.Fatalf("PILOT_HOME in the project: %s", out)
	}
	cache := filepath.Join(ph, "cache") // PILOT_HOME/cache: the cache reachable, the rest hidden
	s3 := NewSession(Policy{Project: filepath.Join(home, ".config"), Home: home, PilotHome: ph, Cache: cache})
	defer s3.Close()
	out, _ = run(t, s3, filepath.Join(home, ".config"), baseEnv(home), `echo c > "$XDG_CACHE_HOME/f" && cat "$XDG_CACHE_HOME/f"; ls "$XDG_CACHE_HOME/.." && echo LISTED-PILOT-HOME`)
	if !strings.Contains(out, "c\n") || strings.Contains(out, "LISTED-PILOT-HOME") {
		t.Fatalf("a cache inside PILOT_HOME: %s", out)
	}
	inHidden := filepath.Join(home, ".config", "gh", "proj")
	s2 := NewSession(Policy{Project: inHidden, Home: home})
	defer s2.Close()
	out, _ = run(t, s2, inHidden, baseEnv(home), `echo ok > f && cat f; cat ../other/hosts.yml && echo READ-HIDDEN`)
	if !strings.Contains(out, "ok") || strings.Contains(out, "READ-HIDDEN") {
		t.Fatalf("a project in a hidden folder: %s", out)
	}
}

// A pod that cannot start (here: a project that does not exist, so bwrap
// cannot bind it) is an error that says the sandbox cannot start and why.
func TestSessionCannotStart(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	missing := filepath.Join(t.TempDir(), "gone")
	s := NewSession(Policy{Project: missing, Home: t.TempDir()})
	defer s.Close()
	_, err := s.Start(context.Background(), Cmd{Command: "true", Dir: missing, Output: os.Stdout})
	if err == nil || !strings.Contains(err.Error(), "the sandbox cannot start") || !strings.Contains(err.Error(), missing) {
		t.Fatalf("err = %v", err)
	}
}
