package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"pilot/backend/service"
)

// Stdin of `pilot -p`. The rule is the kernel's type of stdin, never a
// guess about the data:
//   - a terminal is never read for -p "PROMPT"; for -p - it is read to
//     Ctrl+D, like cat;
//   - anything else (a pipe, a file, /dev/null) is read to its end, like
//     cat: a pipe whose writer never closes it is waited for, and after
//     stdinHintAfter a line on stderr says what Pilot waits for and how
//     not to (</dev/null). Waiting is right for a slow writer
//     (`make 2>&1 | pilot -p "why"`); dropping its text would not be.
//
// What is read is capped at maxStdin: a regular file bigger than that is
// refused from its size without reading it, and any other stdin is read
// to maxStdin+1 bytes at most. Under the cap, the agent's window check
// (a message may take half the model's window) decides, as for a prompt
// typed in the window.
const (
	// maxStdin is twice the biggest window a known model has, in bytes
	// (400k tokens at about 4 bytes a token is 1.6 MB), rounded up: a
	// bigger input can never be sent, so it is not read into memory.
	maxStdin = 4 << 20
	// stdinHintAfter is how long a read of stdin goes on before Pilot
	// says on stderr that it is waiting for stdin to close.
	stdinHintAfter = 2 * time.Second
)

// errNoPrompt: pilot -p - found nothing on stdin.
var errNoPrompt = errors.New(`pilot -p - reads the prompt from stdin, but stdin was empty, so no prompt was given: pipe one in (echo "what to do" | pilot -p -) or give it as an argument (pilot -p "what to do")`)

// stdinTooBigError refuses stdin over maxStdin, with its size when known.
type stdinTooBigError struct {
	size int64 // bytes; 0 when only "more than maxStdin" is known
}

func (e *stdinTooBigError) Error() string {
	size := fmt.Sprintf("more than %s", byteSize(maxStdin))
	if e.size > 0 {
		size = byteSize(e.size)
	}
	return fmt.Sprintf("the input on stdin is %s, more than Pilot reads from stdin (%s) and more than any model's context window takes in one message; name the file in the prompt instead (pilot -p \"summarise big.txt\") so the agent reads it with its tools, or pipe a part of it (head -c 400000 big.txt | pilot -p \"...\")",
		size, byteSize(maxStdin))
}

// pipedTooLarge says that the prompt with the piped text cannot fit in
// the model's window, and what to do in a terminal (the window's advice,
// to attach the file with @, does not apply to pilot -p).
func pipedTooLarge(e *service.MessageTooLargeError, read int) error {
	return fmt.Errorf("the prompt with the text piped to stdin (%s) is about %s tokens, too big for the model's %s-token context window (a message can take up to about %s); name the file in the prompt instead (pilot -p \"summarise big.txt\") so the agent reads it with its tools, or pipe a shorter part",
		byteSize(int64(read)), kTokens(e.Tokens), kTokens(e.Window), kTokens(e.Limit()))
}

// kTokens writes 250000 as "250k", as the agent's sentences do.
func kTokens(n int) string {
	if n >= 10000 {
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return fmt.Sprint(n)
}

// byteSize writes n bytes as "2.0 MiB (2097152 bytes)".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/(1<<10), n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// stdinPrompt is what `pilot -p` sends: the prompt (with -p -, the whole
// of stdin), which may call a custom command, then a blank line and the
// text piped to stdin, if any, sent as it is.
type stdinPrompt struct {
	prompt, piped string
	read          int // bytes that came from stdin
}

// text is the message as sent when the prompt is no command.
func (p stdinPrompt) text() string {
	if p.piped == "" {
		return p.prompt
	}
	return p.prompt + "\n\n" + p.piped
}

// promptText reads what `pilot -p PROMPT` sends: with -p - the prompt is
// stdin; else the prompt given and the text piped to stdin, if any (a
// terminal is not read). Trailing line ends of stdin are dropped.
func promptText(ctx context.Context, prompt string, stdin io.Reader, stderr io.Writer) (stdinPrompt, error) {
	dash := prompt == "-"
	if stdin == nil || (!dash && isTerminal(stdin)) {
		if dash {
			return stdinPrompt{}, errNoPrompt
		}
		return stdinPrompt{prompt: prompt}, nil
	}
	in, err := readStdin(ctx, stdin, stderr, dash)
	if err != nil {
		return stdinPrompt{}, err
	}
	in = strings.TrimRight(in, "\r\n")
	switch {
	case dash && strings.TrimSpace(in) == "":
		return stdinPrompt{}, errNoPrompt
	case dash:
		return stdinPrompt{prompt: in, read: len(in)}, nil
	case strings.TrimSpace(in) == "":
		return stdinPrompt{prompt: prompt}, nil
	}
	return stdinPrompt{prompt: prompt, piped: in, read: len(in)}, nil
}

// readStdin reads r to its end, at most maxStdin bytes, and refuses what
// is not UTF-8 text. A cancelled ctx (Ctrl+C) stops the wait.
func readStdin(ctx context.Context, r io.Reader, stderr io.Writer, dash bool) (string, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxStdin {
			return "", &stdinTooBigError{size: fi.Size()}
		}
	}
	tty := isTerminal(r)
	if tty {
		fmt.Fprintln(stderr, "pilot: type the prompt, then Ctrl+D on a line of its own.")
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
		done <- result{b, err}
	}()
	hint := time.NewTimer(stdinHintAfter)
	defer hint.Stop()
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-hint.C:
			if tty {
				continue
			}
			what := "the piped text, sent after the prompt"
			if dash {
				what = "the prompt (pilot -p - reads stdin to its end)"
			}
			fmt.Fprintf(stderr, "pilot: waiting for stdin to close: it carries %s. If nothing is piped in, give stdin </dev/null.\n", what)
		case res := <-done:
			if res.err != nil {
				return "", fmt.Errorf("reading stdin: %w", res.err)
			}
			if len(res.b) > maxStdin {
				return "", &stdinTooBigError{}
			}
			if !utf8.Valid(res.b) {
				return "", fmt.Errorf("the input on stdin (%s) is not UTF-8 text, so it cannot be sent to the model; pipe text, or name a file in the prompt so the agent reads it with its tools", byteSize(int64(len(res.b))))
			}
			return string(res.b), nil
		}
	}
}
