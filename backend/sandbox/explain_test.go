//go:build linux

package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	ph := filepath.Join(home, ".pilot")
	os.MkdirAll(ph, 0o700)
	p := Policy{Project: "/work/proj", Home: home, PilotHome: ph}
	withProxy := p
	withProxy.Proxy = func(context.Context, net.Conn) {}
	tests := []struct {
		name    string
		p       Policy
		command string
		output  string
		want    []string // one sentence each, by a part of it
	}{
		{"nothing blocked", p, "ls", "a.txt\nb.txt\n", nil},
		{"an ordinary failure", p, "cat nope", "cat: nope: No such file or directory\n", nil},
		{"a permission denied outside hidden paths", p, "cat /etc/shadow", "cat: /etc/shadow: Permission denied\n", nil},
		{"bash redirect", p, "echo x >> ~/.bashrc", "bash: line 1: " + home + "/.bashrc: Read-only file system\n",
			[]string{"The sandbox blocked writing to ~/.bashrc: commands may write only the project (/work/proj) and the temporary folder $TMPDIR; to write elsewhere, ask the user by running the command again with sandbox: false and a reason."}},
		{"touch", p, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system\n", []string{"The sandbox blocked writing to /etc/x:"}},
		{"python", p, "python3 w.py", "OSError: [Errno 30] Read-only file system: '/usr/lib/x'\n", []string{"The sandbox blocked writing to /usr/lib/x:"}},
		{"bash redirect, relative", p, "echo x > ../out.txt", "bash: line 1: ../out.txt: Read-only file system\n", []string{"The sandbox blocked writing to /work/out.txt:"}},
		{"touch, relative", p, "touch ../b", "touch: cannot touch '../b': Read-only file system\n", []string{"The sandbox blocked writing to /work/b:"}},
		{"no path", p, "npm i -g x", "npm ERR! code EROFS\n", []string{"The sandbox blocked a write (read-only file system)"}},
		{"twice the same", p, "x", "touch: cannot touch '/a': Read-only file system\ntouch: cannot touch '/a': Read-only file system\n", []string{"writing to /a:"}},
		{"a secret", p, "cat ~/.ssh/id_rsa", "cat: " + home + "/.ssh/id_rsa: Permission denied\n", []string{"~/.ssh is hidden from commands by the sandbox"}},
		{"ls a secret", p, "ls ~/.ssh", "ls: cannot open directory '" + home + "/.ssh': Permission denied\n", []string{"~/.ssh is hidden"}},
		{"PILOT_HOME", p, "cat", "cat: " + ph + "/pilot.db: Permission denied\n", []string{"~/.pilot is hidden"}},
		{"curl, no proxy", p, "curl https://example.com", "curl: (6) Could not resolve host: example.com\n",
			[]string{"The connection to example.com failed in the sandbox: commands have no network in this session"}},
		{"curl refused, proxy", withProxy, "curl http://127.0.0.1:8080", "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server\n",
			[]string{"The connection to 127.0.0.1:8080 failed in the sandbox: commands have no network but through Pilot's proxy; an allowed host is reached through HTTP(S)_PROXY"}},
		{"bash /dev/tcp", p, "exec 3<>/dev/tcp/127.0.0.1/80", "bash: connect: Connection refused\nbash: line 1: /dev/tcp/127.0.0.1/80: Connection refused\n", []string{"A connection failed in the sandbox"}},
		{"go", p, "go get x", "dial tcp: lookup proxy.golang.org on [::1]:53: read udp: connection refused\n", []string{"The connection to proxy.golang.org failed in the sandbox"}},
		{"unreachable", p, "ping", "connect: Network is unreachable\n", []string{"failed in the sandbox"}},
		{"kill", p, "kill -9 4242", "bash: line 1: kill: (4242) - No such process\n", []string{"The sandbox keeps commands away from processes outside it"}},
		{"strace", p, "strace -p 1", "strace: attach: ptrace(PTRACE_SEIZE, 1): Operation not permitted\n", []string{"away from processes outside it"}},
		{"setuid", p, "chmod u+s tool", "chmod: changing permissions of 'tool': Operation not permitted\n", []string{"The sandbox refuses the setuid and setgid bits"}},
		{"setuid by number", p, "chmod 4755 tool", "chmod: changing permissions of 'tool': Operation not permitted\n", []string{"setuid and setgid"}},
		{"an ordinary chmod refused", p, "chmod 755 /etc/x", "chmod: changing permissions of '/etc/x': Operation not permitted\n", nil},
		{"not a process command", p, "rm x", "rm: cannot remove 'x': Operation not permitted\n", nil},
		{"several", p, "x", "touch: cannot touch '/a': Read-only file system\ncat: " + home + "/.ssh/k: Permission denied\n", []string{"writing to /a", "~/.ssh is hidden"}},
	}
	for _, tc := range tests {
		got := Explain(tc.p, tc.command, tc.output)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d sentences, want %d: %q", tc.name, len(got), len(tc.want), got)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: sentence %d = %q, want it to contain %q", tc.name, i, got[i], w)
			}
		}
	}
}

// Whatever the output, Explain names the sandbox in every sentence, says
// at most maxExplained, and says nothing when no line shows a block.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{"", "Read-only file system", "cat: /root/.ssh/x: Permission denied", "Connection refused",
		"kill: (1) - No such process", "'/x': Read-only file system\n'/y': Read-only file system", "\x00'/\xff': EROFS"} {
		f.Add("kill 1", s)
	}
	p := Policy{Project: "/p", Home: "/root", PilotHome: "/root/.pilot"}
	f.Fuzz(func(t *testing.T, command, output string) {
		got := Explain(p, command, output)
		if len(got) > maxExplained {
			t.Fatalf("%d sentences", len(got))
		}
		for _, s := range got {
			if !strings.Contains(s, "sandbox") || !strings.HasSuffix(s, ".") {
				t.Fatalf("sentence %q", s)
			}
		}
		if !erofs.MatchString(output) && !denied.MatchString(output) && !noNet.MatchString(output) && !noProc.MatchString(output) && !notPerm.MatchString(output) && len(got) > 0 {
			t.Fatalf("sentences %q for an output that shows no block", got)
		}
	})
}

// A write refused in a git folder (Policy.Git) gets the git note: an
// absolute path, a relative one (from the project), the placeholder, or
// no path in a git command's output; a write refused in Policy.ReadOnly
// gets ReadOnlyNote; a write elsewhere and a pathless failure of a
// command that is not git get the general sentences.
func TestExplainReadOnlyNotes(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	common := filepath.Join(proj, ".git")
	admin := filepath.Join(common, "worktrees", "x")
	lone := t.TempDir()
	if err := os.MkdirAll(admin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	git, other := "The repository is read-only.", "Other is read-only."
	p := Policy{Project: proj, Git: GitPaths{ReadOnly: []string{common}, Note: git}, ReadOnly: []string{filepath.Join(proj, "other")}, ReadOnlyNote: other}
	noRepo := Policy{Project: lone, Git: GitPaths{Placeholder: filepath.Join(lone, ".git"), Note: git}}
	if err := os.Mkdir(filepath.Join(lone, ".git"), 0o755); err != nil { // as the pod holds it
		t.Fatal(err)
	}
	for _, c := range []struct {
		p               Policy
		command, output string
		want            string // "" for neither note
	}{
		{p, "git branch y", "fatal: cannot lock ref 'refs/heads/y': Unable to create '" + common + "/refs/heads/y.lock': Read-only file system", git},
		{p, "git add a", "error: unable to create temporary file: Read-only file system\nerror: a: failed to insert into database", git},
		{p, "git add a", "error: insufficient permission for adding an object to repository database " + common + "/objects", git},
		{p, "echo > gitdir", "bash: line 1: " + filepath.Join(admin, "gitdir") + ": Read-only file system", git},
		{p, "echo x > .git/config", "bash: line 1: .git/config: Read-only file system", git},
		{p, "touch .git/hooks/pre-commit", "touch: cannot touch '.git/hooks/pre-commit': Read-only file system", git},
		{noRepo, "git init", "fatal: cannot copy '/usr/share/git-core/templates/hooks/pre-commit.sample' to '" + lone + "/.git/hooks/pre-commit.sample': Read-only file system", git},
		{noRepo, "git init -q", "/x/y: Read-only file system", ""},
		{p, "touch other/x", "touch: cannot touch '" + filepath.Join(proj, "other", "x") + "': Read-only file system", other},
		{p, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system", ""},
		{p, "npm i -g x", "npm ERR! code EROFS", ""},
	} {
		got := Explain(c.p, c.command, c.output)
		note := ""
		for _, s := range got {
			if s == git || s == other {
				note = s
			}
		}
		if note != c.want {
			t.Errorf("%s: %q explained as %q", c.command, c.output, got)
		}
	}
}
