package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"pilot/backend/service"
)

// importFile runs `pilot sessions import FILE [--project DIR]`: it adds
// the session of a JSON export (`pilot sessions export ID --format json`)
// to the project at DIR (default: the current directory), which is
// remembered as opened if it was not yet. The session comes in at the
// user's default approval mode (service Records.Import).
func importFile(ctx context.Context, svc *service.Service, a sessionArgs, stdout io.Writer) error {
	dir := a.project
	if dir == "" {
		dir = "."
	}
	x, p, err := svc.Records.Import(ctx, dir, a.pos[0])
	if err != nil {
		return err
	}
	if a.json {
		return json.NewEncoder(stdout).Encode(x)
	}
	_, err = fmt.Fprintf(stdout, "Imported session %d (%s) into %s.\n", x.ID, orUntitled(x.Title), p.Path)
	return err
}
