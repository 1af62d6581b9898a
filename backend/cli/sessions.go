package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

const sessionsUsage = `usage:
  pilot sessions list [--project DIR] [--json]
  pilot sessions show ID [--json]
  pilot sessions search QUERY [--project DIR] [--json]
  pilot sessions export ID --format md|json
  pilot sessions import FILE [--project DIR] [--json]
  pilot sessions changes ID [--json]
`

// Exit codes of `pilot sessions`.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// sessionArgs is a parsed `pilot sessions` command line.
type sessionArgs struct {
	cmd     string
	pos     []string
	project string
	format  string
	json    bool
	flags   map[string]bool // the flags without a value parseSessionArgsWith was given
}

// oneSession is a command line of flags and one SESSION id (`pilot
// rewind`, `pilot worktree merge`), with --force and --json.
type oneSession struct {
	session     int64
	force, json bool
}

// flagSet is a command's flags, its errors returned, never printed.
func flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse reads the flags of fs (the command's own, and --force and
// --json) wherever they stand in args (the SESSION id may come first),
// and the one SESSION id, a positive number; listedBy is the command that
// lists the ids.
func (o *oneSession) parse(fs *flag.FlagSet, args []string, listedBy string) error {
	fs.BoolVar(&o.force, "force", false, "")
	fs.BoolVar(&o.json, "json", false, "")
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	if len(pos) != 1 {
		return fmt.Errorf("expected one SESSION id, got %d", len(pos))
	}
	id, ok := storedID(pos[0])
	if !ok {
		return fmt.Errorf("%q is not a session id (a number, see `%s`)", pos[0], listedBy)
	}
	o.session = id
	return nil
}

// parseSessionArgs reads flags wherever they stand; --flag=value and
// --flag value both work, and "--" ends the flags.
func parseSessionArgs(args []string) (sessionArgs, error) {
	return parseSessionArgsWith(args)
}

// parseSessionArgsWith is parseSessionArgs that also takes the flags
// without a value named in bools (--yes), set in sessionArgs.flags.
func parseSessionArgsWith(args []string, bools ...string) (sessionArgs, error) {
	a := sessionArgs{flags: map[string]bool{}}
	if len(args) == 0 {
		return a, errors.New("missing subcommand: list, show, search, export, import or changes (pilot help)")
	}
	a.cmd = args[0]
	if a.cmd == "-h" || a.cmd == "--help" {
		a.cmd = "help"
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		if arg == "--" {
			a.pos = append(a.pos, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			a.pos = append(a.pos, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		switch name {
		case "json":
			if hasValue {
				return a, fmt.Errorf("--json takes no value")
			}
			a.json = true
		case "project", "format":
			if !hasValue {
				if i+1 == len(rest) {
					return a, fmt.Errorf("--%s needs a value", name)
				}
				i++
				value = rest[i]
			}
			if name == "project" {
				a.project = value
			} else {
				a.format = value
			}
		case "h", "help":
			a.cmd = "help"
		default:
			if slices.Contains(bools, name) {
				if hasValue {
					return a, fmt.Errorf("--%s takes no value", name)
				}
				a.flags[name] = true
				continue
			}
			return a, fmt.Errorf("unknown flag %s (pilot help lists the flags)", arg)
		}
	}
	return a, nil
}

// runSessions opens PILOT_HOME's service and runs `pilot sessions`.
func runSessions(ctx context.Context, args []string, tio IO) int {
	return withService(ctx, tio, func(svc *service.Service) int {
		return Sessions(ctx, svc, args, tio.Stdout, tio.Stderr)
	})
}

// Sessions runs `pilot sessions ...` (args without "sessions") against
// svc and returns the exit code: 0 done, 1 failed, 2 wrong usage.
func Sessions(ctx context.Context, svc *service.Service, args []string, stdout, stderr io.Writer) int {
	a, err := parseSessionArgs(args)
	if err != nil {
		return misuse(stderr, sessionsUsage, "sessions: %v", err)
	}
	want := map[string]int{"list": 0, "show": 1, "search": 1, "export": 1, "import": 1, "changes": 1}
	n, known := want[a.cmd]
	switch {
	case a.cmd == "help":
		fmt.Fprint(stdout, sessionsUsage)
		return exitOK
	case !known:
		return misuse(stderr, sessionsUsage, "sessions: unknown subcommand %q", a.cmd)
	case a.cmd == "search" && len(a.pos) == 0:
		return misuse(stderr, sessionsUsage, "sessions search: missing QUERY")
	case a.cmd == "search":
		a.pos = []string{strings.Join(a.pos, " ")} // unquoted words: one query
	case len(a.pos) != n:
		return misuse(stderr, sessionsUsage, "sessions %s: expected %d argument(s), got %d", a.cmd, n, len(a.pos))
	}
	var id int64
	if a.cmd == "show" || a.cmd == "export" || a.cmd == "changes" {
		var ok bool
		if id, ok = storedID(a.pos[0]); !ok {
			fmt.Fprintf(stderr, "pilot sessions %s: %q is not a session id (a number, see `pilot sessions list`)\n", a.cmd, a.pos[0])
			return exitUsage
		}
	}
	if a.cmd == "export" && a.format != "md" && a.format != "json" {
		fmt.Fprintf(stderr, "pilot sessions export: --format must be md or json\n")
		return exitUsage
	}
	switch a.cmd {
	case "list":
		err = listSessions(ctx, svc, a, stdout)
	case "search":
		err = searchSessions(ctx, svc, a, stdout)
	case "show":
		err = showSession(ctx, svc, id, a.json, stdout)
	case "import":
		err = importFile(ctx, svc, a, stdout)
	case "changes":
		if _, err = svc.Records.Get(ctx, id); err == nil {
			err = showChanges(ctx, svc, id, a.json, stdout)
		}
	case "export":
		var text string
		if text, err = svc.Sessions.Export(ctx, id, a.format); err == nil {
			out, flush := shownOut(stdout, a.format == "json")
			_, err = io.WriteString(out, text)
			flush()
		}
	}
	if err != nil {
		if errors.Is(err, service.ErrNotFound) {
			fmt.Fprintf(stderr, "pilot sessions %s: no session %d\n", a.cmd, id)
		} else {
			fmt.Fprintf(stderr, "pilot sessions %s: %v\n", a.cmd, err)
		}
		return exitFailure
	}
	return exitOK
}

// project finds the project of --project (default: the current directory).
// ok is false, with a friendly line printed, when it was never opened.
func project(ctx context.Context, svc *service.Service, a sessionArgs, stdout io.Writer) (wire.Project, bool, error) {
	dir := a.project
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return wire.Project{}, false, err
	}
	p, err := svc.Projects.Find(ctx, abs)
	if errors.Is(err, service.ErrNotFound) {
		if !a.json {
			fmt.Fprintf(stdout, "No sessions: %s has not been opened in Pilot yet.\n", abs)
		}
		return wire.Project{}, false, nil
	}
	return p, err == nil, err
}

func listSessions(ctx context.Context, svc *service.Service, a sessionArgs, stdout io.Writer) error {
	p, ok, err := project(ctx, svc, a, stdout)
	if !ok || err != nil {
		return err
	}
	xs, err := svc.Records.List(ctx, p.ID)
	if err != nil {
		return err
	}
	if a.json {
		return jsonLines(stdout, xs)
	}
	if len(xs) == 0 {
		fmt.Fprintf(stdout, "No sessions yet in %s.\n", p.Path)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tMODEL\tTOKENS\tCOST\tWAITING\tTITLE")
	for _, x := range xs {
		u := x.Usage
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t$%.4f\t%d\t%s\n", x.ID, x.UpdatedAt.Local().Format("2006-01-02 15:04"), visible.Line(x.Model),
			u.InputTokens+u.OutputTokens+u.CacheReadTokens+u.CacheWriteTokens, x.CostUSD, x.Waiting, orUntitled(x.Title))
	}
	return tw.Flush()
}

func searchSessions(ctx context.Context, svc *service.Service, a sessionArgs, stdout io.Writer) error {
	p, ok, err := project(ctx, svc, a, stdout)
	if !ok || err != nil {
		return err
	}
	hits, err := svc.Records.Search(ctx, p.ID, a.pos[0])
	if err != nil {
		return err
	}
	if a.json {
		return jsonLines(stdout, hits)
	}
	if len(hits) == 0 {
		fmt.Fprintf(stdout, "No matches for %q in %s.\n", a.pos[0], p.Path)
		return nil
	}
	return printHits(ctx, svc, hits, stdout)
}

// printHits prints hits grouped by session (the session of the best hit
// first): the session's id, title and date, then each hit with the
// message's position in the session, as a person counts it.
func printHits(ctx context.Context, svc *service.Service, hits []wire.SearchRecord, stdout io.Writer) error {
	var order []int64
	bySession := map[int64][]wire.SearchRecord{}
	for _, h := range hits {
		if _, ok := bySession[h.SessionID]; !ok {
			order = append(order, h.SessionID)
		}
		bySession[h.SessionID] = append(bySession[h.SessionID], h)
	}
	for i, id := range order {
		s, err := svc.Records.Get(ctx, id)
		if err != nil {
			return err
		}
		msgs, err := svc.Records.MessageIDs(ctx, id)
		if err != nil {
			return err
		}
		pos := make(map[int64]int, len(msgs))
		for j, m := range msgs {
			pos[m] = j + 1
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "Session %d · %s · %s\n", s.ID, orUntitled(s.Title), s.UpdatedAt.Local().Format("2006-01-02 15:04"))
		for _, h := range bySession[id] {
			fmt.Fprintf(stdout, "  message %d of %d (%s): %s\n", pos[h.MessageID], len(msgs), hitKindText(h.Kind),
				visible.Line(strings.Join(strings.Fields(h.Snippet), " ")))
		}
	}
	return nil
}

// hitKindText says where in a message a hit is.
func hitKindText(k string) string {
	return strings.ReplaceAll(k, "_", " ")
}

func showSession(ctx context.Context, svc *service.Service, id int64, asJSON bool, stdout io.Writer) error {
	t, err := svc.Records.Transcript(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(t)
	}
	x := t.Session
	fmt.Fprintf(stdout, "Session %d: %s\n", x.ID, orUntitled(x.Title))
	fmt.Fprintf(stdout, "Project %s · %s %s · %s · updated %s\n", visible.Line(t.Project.Path), x.Provider, visible.Line(x.Model), x.State,
		x.UpdatedAt.Local().Format(time.DateTime))
	u := x.Usage
	fmt.Fprintf(stdout, "Tokens %d in, %d out, %d cache read, %d cache write · $%.4f\n",
		u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, x.CostUSD)
	calls := map[string]wire.CallRecord{}
	for _, c := range t.ToolCalls {
		calls[c.ToolUseID] = c
	}
	for _, m := range t.Messages {
		state := ""
		if m.State != messageComplete {
			state = " (" + m.State + ")"
		}
		fmt.Fprintf(stdout, "\n[%d] %s%s: (message %d)\n", m.Seq, m.Role, state, m.ID)
		for _, b := range m.Content {
			showBlock(stdout, b, calls)
		}
	}
	return nil
}

// What showSession tells apart in a transcript (wire.ContentBlock.Type,
// MessageRecord.State, CallRecord.Approval).
const (
	blockText        = "text"
	blockThinking    = "thinking"
	blockToolUse     = "tool_use"
	blockToolResult  = "tool_result"
	blockImage       = "image"
	messageComplete  = "complete"
	approvalNotAsked = "none"
)

func showBlock(w io.Writer, b wire.ContentBlock, calls map[string]wire.CallRecord) {
	switch b.Type {
	case blockText:
		fmt.Fprintln(w, indent(b.Text))
	case blockThinking:
		fmt.Fprintln(w, indent("(thinking) "+b.Thinking))
	case blockToolUse:
		status := ""
		if c, ok := calls[b.ID]; ok {
			status = " [" + c.Status
			if c.Approval != approvalNotAsked {
				status += ", " + c.Approval
			}
			status += "]"
		}
		fmt.Fprintf(w, "  → %s %s%s\n", visible.Line(b.Name), b.Input, status) // JSON: escaped by its encoding, the rest by the writer
	case blockToolResult:
		mark := "←"
		if b.IsError {
			mark = "← error:"
		}
		fmt.Fprintln(w, indent(mark+" "+b.Content))
		for _, img := range b.Images {
			showBlock(w, img, calls)
		}
	case blockImage:
		fmt.Fprintf(w, "  [image %s, sha256 %s]\n", b.MediaType, b.Hash)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// orUntitled is a session's title (the model's words) for a line, every
// character visible.
func orUntitled(title string) string {
	if title == "" {
		return "(untitled)"
	}
	return visible.Line(title)
}

// jsonLines writes one JSON object per line.
func jsonLines[T any](w io.Writer, items []T) error {
	enc := json.NewEncoder(w)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	return nil
}
