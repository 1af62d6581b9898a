package cli

import (
	"strings"
	"testing"
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
