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
	"text/tabwriter"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

const modelsUsage = `usage:
  pilot models [--provider P] [--project DIR] [--json]

Lists the models the configured server offers (GET /v1/models, or Ollama's
/api/tags), with the same provider, base URL and key as pilot -p, and
each model's context window, answer limit and prices (US dollars per
million tokens in/out), each marked with where it came from: override
(settings.json's models), server (what the server reports), table
(Pilot's built-in table) or guess (nothing says: set it in settings.json's
models or Settings › Models). See docs/MODELS.md.
`

// Models runs `pilot models`: the model list of the server in force.
func Models(ctx context.Context, args []string, tio IO) int {
	fs := flag.NewFlagSet("models", flag.ContinueOnError)
	provider := fs.String("provider", "", "")
	project := fs.String("project", "", "")
	asJSON := fs.Bool("json", false, "")
	if code, done := parseFlags(fs, args, tio, modelsUsage); done {
		return code
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
		printFacts(tio.Stdout, ms.Facts)
		if len(ms.Models) == 0 {
			fmt.Fprintf(tio.Stderr, "pilot models: %s answered with no models; load one on the server, or pass --model to pilot -p\n", ms.BaseURL)
		}
		return exitOK
	})
}

// printFacts writes each model's facts as a table, with where each came
// from.
func printFacts(w io.Writer, facts []wire.ModelFacts) {
	if len(facts) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tWINDOW\tANSWER LIMIT\tPRICE IN/OUT PER MILLION TOKENS")
	for _, f := range facts {
		window := fmt.Sprintf("%s (%s)", kTokens(f.Window), f.WindowSource)
		if f.Loaded > 0 {
			window += fmt.Sprintf(", loaded with %s", kTokens(f.Loaded))
		}
		price := "not known"
		if f.Prices != nil {
			price = fmt.Sprintf("$%g/$%g (%s)", f.Prices.Input, f.Prices.Output, f.PricesSource)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s (%s)\t%s\n", visible.Line(f.ID), window, kTokens(f.MaxOutput), f.MaxOutputSource, price) // the id is the server's words
	}
	tw.Flush()
}
