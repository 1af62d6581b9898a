package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pilot/backend/config"
	"pilot/backend/store"
)

// importFile runs `pilot sessions import FILE [--project DIR]`: it adds
// the session of a JSON export (`pilot sessions export ID --format json`)
// to the project at DIR (default: the current directory), which is
// remembered as opened if it was not yet.
//
// The session comes in at the user's default approval mode (Settings under
// home, else ask), never at the mode the file names: an export carries no
// authority.
func importFile(ctx context.Context, home string, st *store.Store, a sessionArgs, stdout io.Writer) error {
	dir := a.project
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs) // the form the window opens projects by
	}
	if err != nil {
		return fmt.Errorf("the project folder %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("the project folder %s is not a folder", abs)
	}
	f, err := os.Open(a.pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := st.TouchProject(ctx, abs)
	if err != nil {
		return err
	}
	x, err := st.Import(ctx, p.ID, f, defaultMode(home))
	if err != nil {
		return err
	}
	if a.json {
		return json.NewEncoder(stdout).Encode(x)
	}
	_, err = fmt.Fprintf(stdout, "Imported session %d (%s) into %s.\n", x.ID, orUntitled(x.Title), p.Path)
	return err
}

// defaultMode is the approval mode Settings under home names, else ask.
func defaultMode(home string) string {
	if s, err := config.LoadSettings(home); err == nil {
		switch s.ApprovalMode {
		case config.ApproveAsk, config.ApproveEdits, config.ApproveAll, config.ApproveNone:
			return s.ApprovalMode
		}
	}
	return config.ApproveAsk
}
