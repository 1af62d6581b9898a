package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/paths"
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
		fmt.Fprintf(tio.Stderr, "pilot models: %s\n%s", why, modelsUsage)
		return exitUsage
	}
	home, err := paths.Home(tio.Getenv)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	dir := *project
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, _ = filepath.Abs(dir)
	r, err := config.Resolve(home, dir, config.Choose(tio.Getenv, *provider, ""))
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot models: %v\n", err)
		return exitUsage
	}
	cfg := r.LLM()
	ms, err := llm.ListModels(ctx, cfg)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot models: %s\n", config.Redact(r.Redact(err.Error()), cfg.APIKey))
		return exitFailure
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	sort.Strings(ids)
	if *asJSON {
		_ = json.NewEncoder(tio.Stdout).Encode(map[string]any{"provider": cfg.Provider, "baseUrl": cfg.BaseURL, "models": ids})
		return exitOK
	}
	for _, id := range ids {
		fmt.Fprintln(tio.Stdout, id)
	}
	if len(ids) == 0 {
		fmt.Fprintf(tio.Stderr, "pilot models: %s answered with no models; load one on the server, or pass --model to pilot -p\n", cfg.BaseURL)
	}
	return exitOK
}
