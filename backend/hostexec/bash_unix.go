//go:build unix

package hostexec

// Bash finds bash for run_bash on pathEnv (Find's rules).
func Bash(pathEnv string, more ...string) (string, error) { return Find("bash", pathEnv, more...) }

// Shell finds the POSIX shell hooks run with (sh, as Claude Code's do).
func Shell(pathEnv string, more ...string) (string, error) { return Find("sh", pathEnv, more...) }
