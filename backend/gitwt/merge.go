package gitwt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"pilot/backend/childenv"
)

// MergeFile merges into ours the change that turned base into theirs,
// with `git merge-file`: clean is false when some of that change does not
// apply to ours (then merged is nil and nothing may be written).
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
	cmd := exec.CommandContext(ctx, g.Path, "merge-file", "-p", "--quiet", "ours", "base", "theirs")
	cmd.Dir = tmp
	cmd.Env = childenv.Env(os.Environ(), tmp, map[string]string{"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"})
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), true, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 127 && stderr.Len() == 0:
		return nil, false, nil // the exit code counts the conflicts
	default:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, false, fmt.Errorf("git merge-file: %s", msg)
	}
}
