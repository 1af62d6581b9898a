package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

const rewindUsage = `usage:
  pilot rewind SESSION --to MESSAGE_ID [--code|--conversation|--both] [--force] [--json]

Restores the project's files (--code, the default), the conversation
(--conversation: a new session that ends just before the message) or both
to just before the user message MESSAGE_ID (see pilot sessions show SESSION).
A file changed outside Pilot since Pilot last wrote it is listed and left
alone unless --force is given; the exit code is 0 only when everything
asked was restored.
`

// showChanges prints a session's ledger: each checkpoint with the files it
// created, modified or deleted, oldest first.
func showChanges(ctx context.Context, svc *service.Service, id int64, asJSON bool, stdout io.Writer) error {
	v, err := svc.Ledger.Get(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(v)
	}
	if len(v.Checkpoints) == 0 {
		fmt.Fprintf(stdout, "Session %d changed no files.\n", id)
		return nil
	}
	v = lineFields(v) // file names and commands, every character visible
	for _, c := range v.Checkpoints {
		undone := ""
		if c.Undone {
			undone = "  (undone)"
		}
		fmt.Fprintf(stdout, "#%d  %s  %s  %s%s\n", c.ID, time.UnixMilli(c.CreatedAt).Format("2006-01-02 15:04"), c.Kind, c.Label, undone)
		for _, f := range c.Files {
			line := fmt.Sprintf("    %-8s %s", f.Op, visible.Line(f.Path))
			if f.Folder {
				line += "/"
			}
			if f.RunsCode != "" {
				line += "  [can run code: " + f.RunsCode + "]"
			}
			if !f.Kept {
				line += "  [not revertable: " + f.Why + "]"
			}
			fmt.Fprintln(stdout, line)
		}
		if c.Note != "" {
			fmt.Fprintln(stdout, "    note: "+c.Note)
		}
	}
	fmt.Fprintf(stdout, "\nNet effect of the session on %d %s:\n", len(v.Files), plural(len(v.Files), "file", "files"))
	for _, f := range v.Files {
		fmt.Fprintln(stdout, "    "+netLine(f))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rewindArgs is a parsed `pilot rewind` command line.
type rewindArgs struct {
	oneSession
	message int64
	mode    wire.RewindMode
}

func parseRewindArgs(args []string) (rewindArgs, error) {
	fs := flagSet("rewind")
	to := fs.String("to", "", "")
	code := fs.Bool("code", false, "")
	conv := fs.Bool("conversation", false, "")
	both := fs.Bool("both", false, "")
	a := rewindArgs{}
	if err := a.parse(fs, args, "pilot sessions list"); err != nil {
		return a, err
	}
	var ok bool
	if a.message, ok = storedID(*to); !ok {
		return a, errors.New("--to MESSAGE_ID is required: the id of a user message (see `pilot sessions show SESSION`)")
	}
	n := 0
	a.mode = wire.RewindCode
	for _, m := range []struct {
		on   bool
		mode wire.RewindMode
	}{{*code, wire.RewindCode}, {*conv, wire.RewindConversation}, {*both, wire.RewindBoth}} {
		if m.on {
			n++
			a.mode = m.mode
		}
	}
	if n > 1 {
		return a, errors.New("choose one of --code, --conversation and --both")
	}
	return a, nil
}

// runRewind opens PILOT_HOME and runs `pilot rewind`.
func runRewind(ctx context.Context, args []string, tio IO) int {
	return runParsed(ctx, args, tio, "rewind", rewindUsage, parseRewindArgs, Rewind)
}

// Rewind restores a session to just before a user message and prints what
// it did; conflicts are listed and refused unless a.force.
func Rewind(ctx context.Context, svc *service.Service, a rewindArgs, stdout, stderr io.Writer) int {
	in := wire.RestoreInput{Resolutions: map[string]wire.Resolution{}}
	res, err := svc.Ledger.Rewind(ctx, a.session, a.message, string(a.mode), in)
	if err == nil && len(res.Conflicts) > 0 && a.force {
		for _, c := range res.Conflicts {
			in.Resolutions[c.Path] = wire.ResolveCheckpoint
		}
		res, err = svc.Ledger.Rewind(ctx, a.session, a.message, string(a.mode), in)
	}
	if err != nil {
		switch {
		case errors.Is(err, service.ErrNotFound):
			fmt.Fprintf(stderr, "pilot rewind: %v: check the ids with `pilot sessions show %d`\n", err, a.session)
		case errors.Is(err, service.ErrInvalid):
			fmt.Fprintf(stderr, "pilot rewind: %v: --to takes the id of a user message (see `pilot sessions show %d`)\n", err, a.session)
		default:
			fmt.Fprintf(stderr, "pilot rewind: %v\n", err)
		}
		return exitFailure
	}
	if a.json {
		_ = json.NewEncoder(stdout).Encode(res)
	} else {
		printRestore(stdout, res)
	}
	if len(res.Conflicts) > 0 {
		fmt.Fprintf(stderr, "pilot rewind: %d %s changed outside Pilot since Pilot last wrote %s: nothing was restored. Run again with --force to overwrite (the current versions are kept in the ledger and can be restored).\n",
			len(res.Conflicts), plural(len(res.Conflicts), "file", "files"), plural(len(res.Conflicts), "it", "them"))
		return exitFailure
	}
	if len(res.Missing) > 0 {
		fmt.Fprintf(stderr, "pilot rewind: %d %s could not be restored: their earlier content was not kept\n", len(res.Missing), plural(len(res.Missing), "file", "files"))
		return exitFailure
	}
	return exitOK
}

func printRestore(w io.Writer, res wire.RestoreResult) {
	res = lineFields(res) // the project's file names, every character visible
	for _, c := range res.Conflicts {
		fmt.Fprintf(w, "conflict  %s  (changed outside Pilot)\n", c.Path)
	}
	for _, f := range res.Restored {
		fmt.Fprintf(w, "%-9s %s\n", restoredVerb(string(f.Op)), f.Path)
	}
	for _, p := range res.Kept {
		fmt.Fprintf(w, "kept      %s\n", p)
	}
	for _, f := range res.Missing {
		fmt.Fprintf(w, "missing   %s  (%s)\n", f.Path, f.Why)
	}
	if res.Message != "" {
		fmt.Fprintln(w, res.Message)
	}
	if res.SessionID != 0 {
		fmt.Fprintf(w, "Continue with: pilot repl --resume %d\n", res.SessionID)
	}
}

// restoredVerb says what a restore did to a file, from the op of its own
// checkpoint event.
func restoredVerb(op string) string {
	switch wire.LedgerOp(op) {
	case wire.OpCreated:
		return "recreated"
	case wire.OpDeleted:
		return "removed"
	}
	return "restored"
}
