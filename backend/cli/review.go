package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

const reviewUsage = `usage:
  pilot review [--branch SESSION|--uncommitted] [--project DIR] [--json]

A read-only helper reviews changes on the configured model and prints
each finding as a path:line: text line (--json: one JSON object a line,
wire.ReviewFinding). --uncommitted (the default) reviews the project's
uncommitted changes against HEAD, in a new session of the project;
--branch SESSION reviews a worktree session's branch against its base,
in that session. The findings are stored with the session: the window
shows them on their lines, with "Ask the agent to fix" and "Dismiss".
The helper cannot change anything: its only tools read files.
Exit 0: the review ran (with or without findings; no changes is said on
stderr); 1: it could not run; 2: wrong usage.
`

// runReview runs `pilot review`.
func runReview(ctx context.Context, args []string, tio IO) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	branch := fs.String("branch", "", "")
	uncommitted := fs.Bool("uncommitted", false, "")
	project := fs.String("project", "", "")
	asJSON := fs.Bool("json", false, "")
	if code, done := parseFlags(fs, args, tio, reviewUsage); done {
		return code
	}
	var sessionID int64
	if *branch != "" {
		id, ok := storedID(*branch)
		switch {
		case !ok:
			return misuse(tio.Stderr, reviewUsage, "review: --branch %q is not a session id (a number, see pilot worktree list)", *branch)
		case *uncommitted || *project != "":
			return misuse(tio.Stderr, reviewUsage, "review: --branch reviews a worktree session's branch: give it without --uncommitted and --project")
		}
		sessionID = id
	}
	return withService(ctx, tio, func(svc *service.Service) int {
		res, err := reviewIn(ctx, svc, sessionID, *project)
		if err != nil {
			fmt.Fprintf(tio.Stderr, "pilot review: %v\n", err)
			if errors.Is(err, service.ErrNothingToReview) {
				return exitOK
			}
			return exitFailure
		}
		printFindings(tio, res, *asJSON)
		return exitOK
	})
}

// reviewIn reviews the branch of the worktree session sessionID, or (0)
// the uncommitted changes of the project in dir ("": the current folder)
// in a new session of it.
func reviewIn(ctx context.Context, svc *service.Service, sessionID int64, dir string) (wire.ReviewResult, error) {
	if sessionID != 0 {
		return svc.Reviews.Run(ctx, sessionID, wire.ReviewBranch)
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	p, err := svc.Projects.Add(ctx, dir)
	if err != nil {
		return wire.ReviewResult{}, err
	}
	s, err := svc.Sessions.New(ctx, p.ID)
	if err != nil {
		return wire.ReviewResult{}, err
	}
	return svc.Reviews.Run(ctx, s.ID, wire.ReviewUncommitted)
}

// printFindings writes a review's findings to stdout (path:line: text,
// each field on one line, or JSON lines) and what it moved or dropped,
// and where they are kept, to stderr.
func printFindings(tio IO, res wire.ReviewResult, asJSON bool) {
	if asJSON {
		_ = jsonLines(tio.Stdout, res.Findings)
	} else {
		for _, f := range res.Findings {
			fmt.Fprintf(tio.Stdout, "%s:%d: %s\n", visible.Line(f.Path), f.Line, visible.Line(f.Text))
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(tio.Stderr, "pilot review: %s\n", visible.Line(n))
	}
	n := fmt.Sprintf("%d findings", len(res.Findings))
	if len(res.Findings) == 1 {
		n = "1 finding"
	}
	fmt.Fprintf(tio.Stderr, "pilot review: %s, kept with session %d (open it in the window to have the agent fix one).\n", n, res.SessionID)
}

// reviewCommand is /review typed in `pilot repl` or given as the prompt of
// `pilot -p`: the reviewer of `pilot review` (and of the window's /review)
// runs in the run's session, and its findings print as `pilot review`
// prints them.
const reviewCommand = "/review"

// isReviewLine reports whether line is /review, with or without a scope,
// and the built-in one: a command or skill of the user's named review
// replaces it, as in the window (and as for /init), and goes to the model.
func (h *headless) isReviewLine(ctx context.Context, line string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	if name != reviewCommand {
		return false
	}
	_, err := h.svc.Turns.ExpandCommand(ctx, h.sess.ID, line)
	return errors.Is(err, service.ErrUnknownCommand)
}

// review runs "/review [branch|uncommitted|session]" in the session:
// with no scope, its branch for a worktree session, else its project's
// uncommitted changes (the window's /review chooses the same).
func (h *headless) review(ctx context.Context, line string) error {
	_, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	scope := wire.ReviewScope(strings.TrimSpace(arg))
	switch scope {
	case "", wire.ReviewBranch, wire.ReviewUncommitted, wire.ReviewSession:
	default:
		return fmt.Errorf("/review takes branch, uncommitted or session (or nothing: the session's branch, else the uncommitted changes), not %q", visible.Line(string(scope)))
	}
	res, err := h.svc.Reviews.Run(ctx, h.sess.ID, scope)
	if err != nil {
		return err
	}
	printFindings(h.term.tio, res, h.term.json)
	return nil
}

// reviewRun is `pilot -p "/review ..."`: exit 0 when the review ran (no
// changes to review included, said on stderr), else 1, as `pilot review`.
func (h *headless) reviewRun(ctx context.Context, in stdinPrompt) int {
	err := errors.New("/review reviews the changes and takes no text on stdin: run it without piping anything")
	if in.piped == "" {
		err = h.review(ctx, in.prompt)
	}
	if err != nil {
		fmt.Fprintf(h.term.tio.Stderr, "pilot: %v\n", err)
		if errors.Is(err, service.ErrNothingToReview) {
			return exitOK
		}
		return exitFailure
	}
	return exitOK
}
