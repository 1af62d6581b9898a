package lsp

import (
	"bufio"
	"io"
	"log/slog"
	"os"
	"os/exec"

	"pilot/backend/procgroup"
)

// startProcess starts a server in its own process group (servers started
// through node or a wrapper script leave the real server as a child) in
// dir, with env, its stderr going to log.
//
// No death signal: Linux sends it when the thread that started the process
// ends, not Pilot, and a goroutine's thread may end at any time (servers
// were killed at random). A server whose Pilot died sees its stdin closed
// and exits, as LSP asks.
func startProcess(path string, args []string, dir string, env []string, log *slog.Logger) (*procgroup.Group, io.ReadWriteCloser, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, env
	g := procgroup.New(cmd, false)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	// Our own pipe, not StderrPipe: Wait closes that one as soon as the
	// process exits, losing the last lines a crashing server wrote; this
	// one is read to its end.
	stderr, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = w
	err = g.Start()
	_ = w.Close()
	if err != nil {
		_ = stderr.Close()
		return nil, nil, err
	}
	go func() {
		logStderr(stderr, log)
		_ = stderr.Close()
	}()
	return g, pipes{stdout, stdin}, nil
}

// Caps of what a server's stderr puts in the log: servers that trace
// every message would fill it.
const (
	stderrMaxLines = 200
	stderrMaxLine  = 500
)

// logStderr logs a server's stderr line by line (the service's logger
// redacts secrets), up to stderrMaxLines, and drains the rest.
func logStderr(r io.Reader, log *slog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		switch {
		case n <= stderrMaxLines:
			line := sc.Text()
			if len(line) > stderrMaxLine {
				line = line[:stderrMaxLine] + "…"
			}
			log.Info("language server stderr", "line", line)
		case n == stderrMaxLines+1:
			log.Info("language server stderr: further lines are not logged")
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// pipes is the server's stdout and stdin as one stream for jsonrpc2;
// closing it closes both.
type pipes struct {
	io.ReadCloser
	in io.WriteCloser
}

func (p pipes) Write(b []byte) (int, error) { return p.in.Write(b) }

func (p pipes) Close() error {
	err := p.in.Close()
	if err2 := p.ReadCloser.Close(); err == nil {
		err = err2
	}
	return err
}
