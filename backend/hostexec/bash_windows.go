package hostexec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// gitBashEnv names Git Bash's bash.exe where it is not found by itself:
// Claude Code's variable, so one setting serves both.
const gitBashEnv = "CLAUDE_CODE_GIT_BASH_PATH"

// Bash finds Git Bash's bash.exe, where Claude Code looks for it: the file
// CLAUDE_CODE_GIT_BASH_PATH names, Git for Windows' default place
// (%ProgramFiles%\Git\bin\bash.exe), then bash on pathEnv (Find's rules),
// leaving out System32's bash.exe, which starts WSL's Linux rather than
// running the command on Windows.
func Bash(pathEnv string, more ...string) (string, error) {
	if p := os.Getenv(gitBashEnv); p != "" {
		if !regular(p) {
			return "", fmt.Errorf("%s is %q, which is not a file: set it to Git Bash's bash.exe (for example C:\\Program Files\\Git\\bin\\bash.exe), or unset it", gitBashEnv, p)
		}
		return p, nil
	}
	pf := os.Getenv("ProgramFiles")
	if pf == "" {
		pf = `C:\Program Files`
	}
	if p := filepath.Join(pf, "Git", "bin", "bash.exe"); regular(p) {
		return p, nil
	}
	p, err := Find("bash", pathEnv, more...)
	if err == nil && !strings.EqualFold(filepath.Dir(p), filepath.Join(os.Getenv("SystemRoot"), "System32")) {
		return p, nil
	}
	return "", fmt.Errorf("no Git Bash found: install Git for Windows (https://git-scm.com/download/win), which puts bash.exe in %s, or set %s to a bash.exe", filepath.Join(pf, "Git", "bin"), gitBashEnv)
}

// Shell is Bash: hooks are POSIX shell commands, and Git Bash runs them.
func Shell(pathEnv string, more ...string) (string, error) { return Bash(pathEnv, more...) }
