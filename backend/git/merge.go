package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MergeFile merges into ours the change that turned base into theirs,
// with `git merge-file`: clean is false when some of that change does not
// apply to ours (then merged is nil and nothing may be written). It runs
// in a new temporary folder that git may not look above
// (GIT_CEILING_DIRECTORIES), so no repository's configuration applies.
func (g Git) MergeFile(ctx context.Context, ours, base, theirs []byte) (merged []byte, clean bool, err error) {
	tmp, err := os.MkdirTemp("", "pilot-merge-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(tmp)
	names := []string{"ours", "base", "theirs"}
	for i, data := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(tmp, names[i]), data, 0o600); err != nil {
			return nil, false, err
		}
	}
	env := map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(tmp)}
	stdout, stderr, err := g.exec(ctx, tmp, nil, env, fixedArgs, "merge-file", "-p", "--quiet", "ours", "base", "theirs")
	var exit *exec.ExitError
	switch {
	case err == nil:
		return []byte(stdout), true, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 127 && stderr == "":
		return nil, false, nil // the exit code counts the conflicts
	default:
		msg := strings.TrimSpace(stderr)
		if msg == "" {
			msg = err.Error()
		}
		return nil, false, fmt.Errorf("git merge-file: %s", msg)
	}
}
