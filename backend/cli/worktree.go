package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const worktreeUsage = `usage:
  pilot worktree list [--project DIR] [--json]
  pilot worktree merge SESSION [--hunks all|N,...] [--force]
  pilot worktree discard SESSION --yes
(a worktree session starts with pilot -p "..." --worktree NAME or pilot repl --worktree NAME)
`

// runWorktree opens PILOT_HOME's service and runs `pilot worktree ...`:
// exit 0 done, 1 failed, 2 wrong usage (a discard without --yes too).
func runWorktree(ctx context.Context, args []string, tio IO) int {
	if len(args) == 0 {
		return misuse(tio.Stderr, worktreeUsage, "worktree: missing subcommand: list, merge or discard")
	}
	if args[0] == "merge" {
		return runWorktreeMerge(ctx, args[1:], tio)
	}
	a, err := parseSessionArgsWith(args, "yes")
	if err != nil {
		return misuse(tio.Stderr, worktreeUsage, "worktree: %v", err)
	}
	switch {
	case a.cmd == "help":
		fmt.Fprint(tio.Stdout, worktreeUsage)
		return exitOK
	case a.cmd == "list" && len(a.pos) == 0:
		return withService(ctx, tio, func(svc *service.Service) int {
			return report(tio.Stderr, "list", listWorktrees(ctx, svc, a, tio.Stdout))
		})
	case a.cmd == "discard" && len(a.pos) == 1:
		id, ok := storedID(a.pos[0])
		if !ok {
			fmt.Fprintf(tio.Stderr, "pilot worktree discard: %q is not a session id (a number, see pilot worktree list)\n", a.pos[0])
			return exitUsage
		}
		return withService(ctx, tio, func(svc *service.Service) int {
			return discardWorktree(ctx, svc, id, a.flags["yes"], tio)
		})
	case a.cmd == "list" || a.cmd == "discard":
		return misuse(tio.Stderr, worktreeUsage, "worktree %s: wrong number of arguments", a.cmd)
	}
	return misuse(tio.Stderr, worktreeUsage, "worktree: unknown subcommand %q", a.cmd)
}

func report(stderr io.Writer, cmd string, err error) int {
	if err != nil {
		fmt.Fprintf(stderr, "pilot worktree %s: %v\n", cmd, err)
		return exitFailure
	}
	return exitOK
}

// listWorktrees prints the project's worktree sessions: id, branch, state
// and folder (a table, or a wire.WorktreeLine each with --json).
func listWorktrees(ctx context.Context, svc *service.Service, a sessionArgs, stdout io.Writer) error {
	p, ok, err := project(ctx, svc, a, stdout)
	if !ok || err != nil {
		return err
	}
	ss, err := svc.Worktrees.Sessions(ctx, p.ID)
	if err != nil {
		return err
	}
	lines := make([]wire.WorktreeLine, len(ss))
	for i, s := range ss {
		lines[i] = wire.WorktreeLine{SessionID: s.ID, Title: s.Title, Branch: s.Branch, Path: s.Worktree, State: s.State, Discarded: s.WorktreeDiscarded}
	}
	if a.json {
		return jsonLines(stdout, lines)
	}
	if len(lines) == 0 {
		_, err := fmt.Fprintf(stdout, "No worktree sessions in %s: start one with pilot -p \"...\" --worktree NAME.\n", p.Path)
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tBRANCH\tSTATE\tPATH")
	for _, l := range lines {
		l := lineFields(l)
		state, path := string(l.State), l.Path
		if l.Discarded {
			state, path = "discarded", "(removed)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", l.SessionID, l.Branch, state, path)
	}
	return tw.Flush()
}

// discardWorktree removes the session's worktree and branch; without yes
// it only says what it would remove (exit 2).
func discardWorktree(ctx context.Context, svc *service.Service, id int64, yes bool, tio IO) int {
	s, err := svc.Worktrees.Of(ctx, id)
	if err != nil {
		return report(tio.Stderr, "discard", err)
	}
	if s.WorktreeDiscarded {
		return report(tio.Stderr, "discard", fmt.Errorf("the worktree of session %d (branch %s) was already discarded", id, s.Branch))
	}
	if !yes {
		fmt.Fprintf(tio.Stderr, "pilot worktree discard: this removes the worktree %s and the branch %s of session %d, with everything in them, committed or not; run it again with --yes to do it.\n", s.Worktree, s.Branch, id)
		return exitUsage
	}
	if err := svc.Worktrees.Discard(ctx, id); err != nil {
		if errors.Is(err, service.ErrNoSession) {
			err = fmt.Errorf("there is no session %d", id)
		}
		return report(tio.Stderr, "discard", err)
	}
	fmt.Fprintf(tio.Stdout, "Removed the worktree %s and the branch %s; session %d stays in the history, marked discarded.\n", s.Worktree, s.Branch, id)
	return exitOK
}
