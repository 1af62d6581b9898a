package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
)

const modelsUsage = `usage:
  pilot models [--provider P] [--project DIR] [--json]

Lists the models the configured server offers (GET /v1/models, or Ollama's
/api/tags), with the same provider, base URL and key as pilot -p.
`

// Models runs `pilot models`: the model list of the server in force.
func Models(ctx context.Context, args []string, tio IO) int {
	fs := flag.NewFlagSet("models", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	provider := fs.String("provider", "", "")
	project := fs.String("project", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == flag.ErrHelp {
			fmt.Fprint(tio.Stdout, modelsUsage)
			return exitOK
		}
		why := fmt.Sprint(err)
		if err == nil {
			why = fmt.Sprintf("unexpected argument %q", fs.Arg(0))
		}
		return misuse(tio.Stderr, modelsUsage, "models: %s", why)
	}
	dir := *project
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, _ = filepath.Abs(dir)
	return withService(ctx, tio, func(svc *service.Service) int {
		ms, err := svc.Settings.ModelsIn(ctx, dir, *provider)
		switch {
		case errors.Is(err, service.ErrSettings):
			fmt.Fprintf(tio.Stderr, "pilot models: %v\n", err)
			return exitUsage
		case err != nil:
			fmt.Fprintf(tio.Stderr, "pilot models: %v\n", err)
			return exitFailure
		}
		if *asJSON {
			_ = json.NewEncoder(tio.Stdout).Encode(ms)
			return exitOK
		}
		for _, id := range ms.Models {
			fmt.Fprintln(tio.Stdout, visible.Line(id)) // the server's words
		}
		if len(ms.Models) == 0 {
			fmt.Fprintf(tio.Stderr, "pilot models: %s answered with no models; load one on the server, or pass --model to pilot -p\n", ms.BaseURL)
		}
		return exitOK
	})
}
