package tools

import (
	"context"
	"errors"

	"pilot/backend/projectroot"
	"pilot/backend/toolname"
)

// DiagnosticsTool reads what the language servers say about a file or
// about every file they reported on.
const DiagnosticsTool = toolname.Diagnostics

// DiagnosticsParams is the input of diagnostics.
type DiagnosticsParams struct {
	Path string `json:"path,omitempty" desc:"A file, relative to the project root. Leave it out for every file a language server has reported on."`
}

// Diagnose answers the diagnostics tool: the text the model reads about
// rel ('/'-separated, relative to the root; "" for every file reported
// on). withheld says whether a file's diagnostics must be left out.
type Diagnose func(ctx context.Context, rel string, withheld func(rel string) bool) string

func labelDiagnostics(p DiagnosticsParams) string {
	if p.Path == "" || p.Path == "." {
		return "→ Reading the project's diagnostics"
	}
	return "→ Reading the diagnostics of " + truncate(p.Path, 120)
}

func runDiagnostics(ctx context.Context, d Deps, p DiagnosticsParams) (Result, error) {
	if d.Diagnostics == nil {
		return errorf("No language servers are set up in this Pilot, so there are no diagnostics to read. Run the project's build or tests to check your work instead."), nil
	}
	rel := ""
	if p.Path != "" && p.Path != "." {
		at, err := d.Root.Resolve(p.Path)
		if err != nil {
			if pe := (*projectroot.PathError)(nil); errors.As(err, &pe) {
				return errorf("%s", pe.Msg), nil
			}
			return Result{}, err
		}
		if at.Rel != "." {
			rel = at.Rel
		}
	}
	held := func(rel string) bool { return d.withheld(DiagnosticsTool, rel) || d.withheld(toolname.ReadFile, rel) }
	if rel != "" && held(rel) {
		return errorf("The diagnostics of %s are withheld: a project rule denies reading that file.", rel), nil
	}
	return Result{Output: d.Diagnostics(ctx, rel, held)}, nil
}
