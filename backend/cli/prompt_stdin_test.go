package cli

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// pilot -p --help prints the usage, which says how stdin is read; before,
// -p took "--help" as the prompt.
func TestPromptHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-p", "--help"}, {"-p", "-h"}, {"--prompt=--help"}, {"-p", "x", "--help"}, {"repl", "--help"}, {"help"}} {
		r := runCLI(t, map[string]string{}, "", args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
		for _, s := range []string{`pilot -p - [...]`, `CMD | pilot -p "PROMPT"`, "stdin that is a terminal is never read", "</dev/null", "more than 4 MiB on stdin is refused"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%q: the usage has no %q:\n%s", args, s, r.stdout)
			}
		}
	}
}

// promptText on readers that are not files (what tests and embedders
// pass): the same rules as a pipe.
func TestPromptTextReaders(t *testing.T) {
	t.Parallel()
	cases := []struct {
		prompt, in, want string
		err              string
	}{
		{"-", "hi\n", "hi", ""},
		{"-", "line 1\r\nline 2\r\n", "line 1\r\nline 2", ""},
		{"explain this", "ERROR x", "explain this\n\nERROR x", ""},
		{"x", "", "x", ""},
		{"x", " \n\t\n", "x", ""},
		{"-", "", "", "no prompt was given"},
		{"-", "\n\n", "", "no prompt was given"},
		{"x", "\xff\xfe", "", "is not UTF-8 text"},
		{"x", strings.Repeat("y", maxStdin+1), "", "more than 4.0 MiB"},
		{"x", strings.Repeat("y", maxStdin), "x\n\n" + strings.Repeat("y", maxStdin), ""},
	}
	for _, c := range cases {
		var stderr strings.Builder
		p, err := promptText(t.Context(), c.prompt, strings.NewReader(c.in), &stderr)
		got, piped := p.text(), p.read
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q < %.20q: err %v, want %q", c.prompt, c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q < %.20q: %.40q, %v; want %.40q", c.prompt, c.in, got, err, c.want)
		}
		if want := len(got) - len(c.prompt) - 2; c.prompt != "-" && got != c.prompt && piped != want {
			t.Errorf("%q < %.20q: piped %d, want %d", c.prompt, c.in, piped, want)
		}
	}
}

// Whatever is piped, the text sent is the prompt, then the piped text as
// it came (but for trailing line ends), and valid UTF-8; or an error.
func FuzzPromptText(f *testing.F) {
	for _, s := range []string{"", "hi\n", "\xff", "a\r\n\r\n", " ", "ERROR x"} {
		f.Add("explain", s)
		f.Add("-", s)
	}
	f.Fuzz(func(t *testing.T, prompt, in string) {
		p, err := promptText(t.Context(), prompt, strings.NewReader(in), io.Discard)
		if err != nil {
			return
		}
		got, piped := p.text(), p.read
		trimmed := strings.TrimRight(in, "\r\n")
		if !utf8.ValidString(in) {
			t.Fatalf("%q was not refused", in)
		}
		switch {
		case prompt == "-":
			if got != trimmed || piped != len(trimmed) || strings.TrimSpace(got) == "" {
				t.Fatalf("-p - < %q: %q (%d)", in, got, piped)
			}
		case strings.TrimSpace(in) == "":
			if got != prompt || piped != 0 {
				t.Fatalf("%q < %q: %q", prompt, in, got)
			}
		default:
			if got != prompt+"\n\n"+trimmed || piped != len(trimmed) {
				t.Fatalf("%q < %q: %q (%d)", prompt, in, got, piped)
			}
		}
	})
}
