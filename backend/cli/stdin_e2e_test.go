package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/internal/fakellm"
)

// stdinRun is one run of the real binary with a given stdin.
type stdinRun struct {
	code           int
	stdout, stderr string
	sent           []string // the last user text of each request the model received
}

// runStdin runs `pilot ARGS` with stdin (nil: /dev/null) against a fake
// model that answers "OK." to anything.
func runStdin(t *testing.T, stdin io.Reader, args ...string) stdinRun {
	t.Helper()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "OK.", Repeat: true}}})
	defer srv.Close()
	cmd := command(t, srv, t.TempDir(), append(args, "--project", t.TempDir())...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	err := cmd.Run()
	r := stdinRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, q := range srv.Requests() {
		r.sent = append(r.sent, q.LastUserText)
	}
	return r
}

// fileOf writes text to a file and opens it, as `< file` does.
func fileOf(t *testing.T, text string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestStdinBinaryPrompt(t *testing.T) {
	t.Parallel()
	devNull := func(t *testing.T) io.Reader {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	cases := []struct {
		name  string
		stdin func(t *testing.T) io.Reader
		args  []string
		code  int
		sent  string // "" : nothing reached the model
		err   string // in stderr
	}{
		{"echo hi | pilot -p -", func(*testing.T) io.Reader { return strings.NewReader("hi\n") }, []string{"-p", "-"}, 0, "hi", ""},
		{"printf 'ERROR x' | pilot -p 'explain this'", func(*testing.T) io.Reader { return strings.NewReader("ERROR x") }, []string{"-p", "explain this"}, 0, "explain this\n\nERROR x", ""},
		{"pilot -p 'explain this' < file", func(t *testing.T) io.Reader { return fileOf(t, "line 1\nline 2\n") }, []string{"-p", "explain this"}, 0, "explain this\n\nline 1\nline 2", ""},
		{"pilot -p x < /dev/null", devNull, []string{"-p", "x"}, 0, "x", ""},
		{"echo | pilot -p x", func(*testing.T) io.Reader { return strings.NewReader("\n") }, []string{"-p", "x"}, 0, "x", ""},
		{"pilot -p - < /dev/null", devNull, []string{"-p", "-"}, 2, "", "stdin was empty, so no prompt was given: pipe one in (echo \"what to do\" | pilot -p -)"},
		{"pilot --prompt=- < empty file", func(t *testing.T) io.Reader { return fileOf(t, "") }, []string{"--prompt=-"}, 2, "", "no prompt was given"},
		{"binary | pilot -p x", func(*testing.T) io.Reader { return bytes.NewReader([]byte{0xff, 0xfe, 0, 1}) }, []string{"-p", "x"}, 1, "", "is not UTF-8 text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runStdin(t, c.stdin(t), c.args...)
			if r.code != c.code || !strings.Contains(r.stderr, c.err) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", r.code, c.code, r.stderr, c.err)
			}
			var want []string
			if c.sent != "" {
				want = []string{c.sent}
				if r.stdout != "OK.\n" {
					t.Errorf("stdout %q", r.stdout)
				}
			}
			if !slices.Equal(r.sent, want) {
				t.Errorf("the model received %q, want %q", r.sent, want)
			}
		})
	}
}

// A piped input too big for the model's window is refused with its size
// before anything is sent; one over maxStdin is refused without being
// read whole, from a file or a pipe.
func TestStdinBinaryTooBig(t *testing.T) {
	t.Parallel()
	twoMB := strings.Repeat("a log line that goes on and on\n", 2<<20/31+1)[:2<<20]
	huge := func() io.Reader { return io.LimitReader(neverEnding('x'), maxStdin+64<<10) }
	cases := []struct {
		name  string
		stdin func(t *testing.T) io.Reader
		code  int
		err   []string
	}{
		{"2 MB file", func(t *testing.T) io.Reader { return fileOf(t, twoMB) }, 1,
			[]string{"pilot: the prompt with the text piped to stdin (2.0 MiB (2097152 bytes)) is about 524k tokens, too big for the model's 200k-token context window (a message can take up to about 100k); name the file in the prompt instead (pilot -p \"summarise big.txt\") so the agent reads it with its tools, or pipe a shorter part\n"}},
		{"2 MB pipe", func(*testing.T) io.Reader { return strings.NewReader(twoMB) }, 1,
			[]string{"is about 524k tokens, too big for the model's 200k-token context window", "(2.0 MiB (2097152 bytes))"}},
		{"file over the cap", func(t *testing.T) io.Reader { return fileOf(t, strings.Repeat("y", maxStdin+1)) }, 2,
			[]string{"the input on stdin is 4.0 MiB (4194305 bytes), more than Pilot reads from stdin (4.0 MiB (4194304 bytes))"}},
		{"pipe over the cap", func(*testing.T) io.Reader { return huge() }, 2,
			[]string{"the input on stdin is more than 4.0 MiB (4194304 bytes)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runStdin(t, c.stdin(t), "-p", "summarise")
			if r.code != c.code || len(r.sent) != 0 {
				t.Errorf("exit %d (want %d), the model received %d requests", r.code, c.code, len(r.sent))
			}
			for _, s := range c.err {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q\nhas no %q", r.stderr, s)
				}
			}
		})
	}
}

// neverEnding is an endless reader of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// A pipe whose writer has not closed it is waited for, like cat does,
// with a line on stderr saying so; what comes later is sent.
func TestStdinBinaryOpenPipe(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "OK.", Repeat: true}}})
	defer srv.Close()
	cmd := command(t, srv, t.TempDir(), "-p", "x", "--project", t.TempDir())
	in, _ := cmd.StdinPipe()
	errPipe, _ := cmd.StderrPipe()
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(errPipe)
	waitFor(t, r, "pilot: waiting for stdin to close: it carries the piped text, sent after the prompt. If nothing is piped in, give stdin </dev/null.")
	io.WriteString(in, "late text\n")
	in.Close()
	go io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].LastUserText != "x\n\nlate text" || stdout.String() != "OK.\n" {
		t.Errorf("requests %+v, stdout %q", reqs, stdout.String())
	}
}

// Ctrl+C while pilot -p waits for stdin ends it with 130; nothing is sent.
func TestStdinBinaryOpenPipeInterrupt(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "OK.", Repeat: true}}})
	defer srv.Close()
	cmd := command(t, srv, t.TempDir(), "-p", "-", "--project", t.TempDir())
	in, _ := cmd.StdinPipe()
	defer in.Close()
	errPipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(errPipe)
	waitFor(t, r, "it carries the prompt (pilot -p - reads stdin to its end)")
	cmd.Process.Signal(syscall.SIGINT)
	var rest bytes.Buffer
	io.Copy(&rest, r)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.Contains(rest.String(), "pilot: cancelled while reading stdin") || len(srv.Requests()) != 0 {
		t.Errorf("exit %v, stderr %q, %d requests", err, rest.String(), len(srv.Requests()))
	}
}

// --json prints the same kinds of lines, with the same fields, whether
// the prompt came from an argument or from stdin.
func TestStdinBinaryJSON(t *testing.T) {
	t.Parallel()
	shape := func(out string) []string {
		var kinds []string
		for line := range strings.Lines(out) {
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("not a JSON line: %q", line)
			}
			var keys []string
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			kinds = append(kinds, strings.Join(keys, ","))
		}
		return kinds
	}
	arg := runStdin(t, nil, "-p", "hi", "--json")
	piped := runStdin(t, strings.NewReader("hi\n"), "-p", "-", "--json")
	if arg.code != 0 || piped.code != 0 || !slices.Equal(arg.sent, piped.sent) {
		t.Fatalf("exit %d and %d, sent %q and %q", arg.code, piped.code, arg.sent, piped.sent)
	}
	a, p := shape(arg.stdout), shape(piped.stdout)
	if !slices.Equal(a, p) || len(a) == 0 || !strings.Contains(piped.stdout, `{"type":"text","text":"OK."}`) {
		t.Errorf("--json lines differ:\nargument: %q\nstdin:    %q\n%s", a, p, piped.stdout)
	}
}

// With stdin on /dev/null (a character device, not a terminal) nobody can
// approve: the change is refused as without a terminal, without a
// question on stderr, and the model is told why. Before, /dev/null
// counted as a terminal: the question was printed, read end of file, and
// the model was told the user declined, which nobody did.
func TestStdinBinaryDevNullApproval(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "p", Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)}}},
		{Text: "Left as it was."},
	}})
	defer srv.Close()
	dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
	cmd := command(t, srv, t.TempDir(), "-p", "Mark it final", "--project", dir, "--approve", "ask")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr // cmd.Stdin nil: /dev/null
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].ToolResults) != 1 || !strings.Contains(reqs[1].ToolResults[0].Content, "nobody is at a terminal to approve it") {
		var results []fakellm.ToolResult
		for _, q := range reqs {
			results = append(results, q.ToolResults...)
		}
		t.Fatalf("%d requests, tool results %+v", len(reqs), results)
	}
	if strings.Contains(stderr.String(), "[y]es") {
		t.Errorf("a question was asked on stderr: %q", stderr.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "status: draft\n" {
		t.Errorf("notes.txt = %q", b)
	}
}

// A custom command in the prompt is expanded alone; the piped text comes
// after its text, not inside its arguments.
func TestStdinBinaryCommand(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "OK.", Repeat: true}}})
	defer srv.Close()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".pilot", "commands"), 0o755)
	os.WriteFile(filepath.Join(dir, ".pilot", "commands", "review.md"), []byte("Review the diff below for $ARGUMENTS."), 0o644)
	for _, prompt := range []string{"/review bugs", "/review"} {
		cmd := command(t, srv, t.TempDir(), "-p", prompt, "--project", dir)
		cmd.Stdin = strings.NewReader("-old\n+new\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", prompt, err, out)
		}
	}
	var sent []string
	for _, q := range srv.Requests() {
		sent = append(sent, q.LastUserText)
	}
	want := []string{"Review the diff below for bugs.\n\n-old\n+new", "Review the diff below for .\n\n-old\n+new"}
	if !slices.Equal(sent, want) {
		t.Errorf("the model received %q, want %q", sent, want)
	}
}
