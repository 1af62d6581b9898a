// Package paths knows where Pilot keeps its data.
package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Home returns the data directory: $PILOT_HOME, or the OS user config
// directory + "/pilot". getenv is os.Getenv outside tests.
func Home(getenv func(string) string) (string, error) {
	if h := getenv("PILOT_HOME"); h != "" {
		return filepath.Abs(h)
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a data directory (%v): set PILOT_HOME to a writable folder", err)
	}
	return filepath.Join(dir, "pilot"), nil
}

// Ensure creates the data directory and its logs folder (mode 0700).
func Ensure(home string) error {
	if err := os.MkdirAll(LogDir(home), 0o700); err != nil {
		return fmt.Errorf("cannot create the data directory %s: %w (set PILOT_HOME to a writable folder)", home, err)
	}
	return nil
}

// LogDir is where pilot.log lives.
func LogDir(home string) string { return filepath.Join(home, "logs") }

// DB is the path of the session database.
func DB(home string) string { return filepath.Join(home, "pilot.db") }

// Checkpoints is the folder of the change ledger: stored file content
// (blobs) and the per-project scan manifests (trees). Never inside a project.
func Checkpoints(home string) string { return filepath.Join(home, "checkpoints") }

// Worktree is the folder of a project's worktree NAME (a worktree
// session's): PILOT_HOME/worktrees/<project id>/<NAME>. Never inside a
// project, so a worktree is never inside the tree it was made from.
func Worktree(home string, projectID int64, name string) string {
	return filepath.Join(Worktrees(home), strconv.FormatInt(projectID, 10), name)
}

// Worktrees is the folder of every project's worktrees.
func Worktrees(home string) string { return filepath.Join(home, "worktrees") }
