package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"pilot/backend/ledger"
	"pilot/backend/llm"
	"pilot/backend/store"
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
}

// parseSessionArgs reads flags wherever they stand; --flag=value and
// --flag value both work, and "--" ends the flags.
func parseSessionArgs(args []string) (sessionArgs, error) {
	var a sessionArgs
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
			return a, fmt.Errorf("unknown flag %s (pilot help lists the flags)", arg)
		}
	}
	return a, nil
}

// Sessions runs `pilot sessions ...` (args without "sessions") against st
// (home is PILOT_HOME, for the settings an import reads) and returns the
// exit code: 0 done, 1 failed, 2 wrong usage.
func Sessions(ctx context.Context, home string, st *store.Store, lg *ledger.Ledger, args []string, stdout, stderr io.Writer) int {
	a, err := parseSessionArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "pilot sessions: %v\n%s", err, sessionsUsage)
		return exitUsage
	}
	want := map[string]int{"list": 0, "show": 1, "search": 1, "export": 1, "import": 1, "changes": 1}
	n, known := want[a.cmd]
	switch {
	case a.cmd == "help":
		fmt.Fprint(stdout, sessionsUsage)
		return exitOK
	case !known:
		fmt.Fprintf(stderr, "pilot sessions: unknown subcommand %q\n%s", a.cmd, sessionsUsage)
		return exitUsage
	case a.cmd == "search" && len(a.pos) == 0:
		fmt.Fprintf(stderr, "pilot sessions search: missing QUERY\n%s", sessionsUsage)
		return exitUsage
	case a.cmd == "search":
		a.pos = []string{strings.Join(a.pos, " ")} // unquoted words: one query
	case len(a.pos) != n:
		fmt.Fprintf(stderr, "pilot sessions %s: expected %d argument(s), got %d\n%s", a.cmd, n, len(a.pos), sessionsUsage)
		return exitUsage
	}
	var id int64
	if a.cmd == "show" || a.cmd == "export" || a.cmd == "changes" {
		if id, err = strconv.ParseInt(a.pos[0], 10, 64); err != nil || id <= 0 {
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
		err = listSessions(ctx, st, a, stdout)
	case "search":
		err = searchSessions(ctx, st, a, stdout)
	case "show":
		err = showSession(ctx, st, id, a.json, stdout)
	case "import":
		err = importFile(ctx, home, st, a, stdout)
	case "changes":
		if _, err = st.Session(ctx, id); err == nil {
			err = showChanges(ctx, lg, id, a.json, stdout)
		}
	case "export":
		if a.format == "md" {
			err = st.WriteMarkdown(ctx, id, stdout)
		} else {
			err = st.WriteJSON(ctx, id, stdout)
		}
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
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
func project(ctx context.Context, st *store.Store, a sessionArgs, stdout io.Writer) (store.Project, bool, error) {
	dir := a.project
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return store.Project{}, false, err
	}
	p, err := st.ProjectByPath(ctx, abs)
	if resolved, rerr := filepath.EvalSymlinks(abs); errors.Is(err, store.ErrNotFound) && rerr == nil && resolved != abs {
		p, err = st.ProjectByPath(ctx, resolved) // opened through its real path
	}
	if errors.Is(err, store.ErrNotFound) {
		if !a.json {
			fmt.Fprintf(stdout, "No sessions: %s has not been opened in Pilot yet.\n", abs)
		}
		return store.Project{}, false, nil
	}
	return p, err == nil, err
}

func listSessions(ctx context.Context, st *store.Store, a sessionArgs, stdout io.Writer) error {
	p, ok, err := project(ctx, st, a, stdout)
	if !ok || err != nil {
		return err
	}
	xs, err := st.Sessions(ctx, p.ID, 0, 0)
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
	fmt.Fprintln(tw, "ID\tUPDATED\tMODEL\tTOKENS\tCOST\tTITLE")
	for _, x := range xs {
		u := x.Usage
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t$%.4f\t%s\n", x.ID, x.UpdatedAt.Local().Format("2006-01-02 15:04"), x.Model,
			u.InputTokens+u.OutputTokens+u.CacheReadTokens+u.CacheWriteTokens, x.CostUSD, orUntitled(x.Title))
	}
	return tw.Flush()
}

func searchSessions(ctx context.Context, st *store.Store, a sessionArgs, stdout io.Writer) error {
	p, ok, err := project(ctx, st, a, stdout)
	if !ok || err != nil {
		return err
	}
	hits, err := st.Search(ctx, p.ID, a.pos[0], 50)
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
	return printHits(ctx, st, hits, stdout)
}

// printHits prints hits grouped by session (the session of the best hit
// first): the session's id, title and date, then each hit with the
// message's position in the session, as a person counts it.
func printHits(ctx context.Context, st *store.Store, hits []store.SearchHit, stdout io.Writer) error {
	var order []int64
	bySession := map[int64][]store.SearchHit{}
	for _, h := range hits {
		if _, ok := bySession[h.SessionID]; !ok {
			order = append(order, h.SessionID)
		}
		bySession[h.SessionID] = append(bySession[h.SessionID], h)
	}
	for i, id := range order {
		s, err := st.Session(ctx, id)
		if err != nil {
			return err
		}
		msgs, err := st.Messages(ctx, id)
		if err != nil {
			return err
		}
		pos := make(map[int64]int, len(msgs))
		for j, m := range msgs {
			pos[m.ID] = j + 1
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "Session %d · %s · %s\n", s.ID, orUntitled(s.Title), s.UpdatedAt.Local().Format("2006-01-02 15:04"))
		for _, h := range bySession[id] {
			fmt.Fprintf(stdout, "  message %d of %d (%s): %s\n", pos[h.MessageID], len(msgs), hitKindText(h.Kind),
				strings.Join(strings.Fields(h.Snippet), " "))
		}
	}
	return nil
}

// hitKindText says where in a message a hit is.
func hitKindText(k store.HitKind) string {
	return strings.ReplaceAll(string(k), "_", " ")
}

func showSession(ctx context.Context, st *store.Store, id int64, asJSON bool, stdout io.Writer) error {
	t, err := st.Transcript(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(t)
	}
	x := t.Session
	fmt.Fprintf(stdout, "Session %d: %s\n", x.ID, orUntitled(x.Title))
	fmt.Fprintf(stdout, "Project %s · %s %s · %s · updated %s\n", t.Project.Path, x.Provider, x.Model, x.State,
		x.UpdatedAt.Local().Format(time.DateTime))
	u := x.Usage
	fmt.Fprintf(stdout, "Tokens %d in, %d out, %d cache read, %d cache write · $%.4f\n",
		u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, x.CostUSD)
	calls := map[string]store.ToolCall{}
	for _, c := range t.ToolCalls {
		calls[c.ToolUseID] = c
	}
	for _, m := range t.Messages {
		state := ""
		if m.State != store.MessageComplete {
			state = " (" + string(m.State) + ")"
		}
		fmt.Fprintf(stdout, "\n[%d] %s%s: (message %d)\n", m.Seq, m.Role, state, m.ID)
		for _, b := range m.Content {
			showBlock(stdout, b, calls)
		}
	}
	return nil
}

func showBlock(w io.Writer, b llm.ContentBlock, calls map[string]store.ToolCall) {
	switch b.Type {
	case llm.BlockText:
		fmt.Fprintln(w, indent(b.Text))
	case llm.BlockThinking:
		fmt.Fprintln(w, indent("(thinking) "+b.Thinking))
	case llm.BlockToolUse:
		status := ""
		if c, ok := calls[b.ID]; ok {
			status = " [" + string(c.Status)
			if c.Approval != store.ApprovalNone {
				status += ", " + string(c.Approval)
			}
			status += "]"
		}
		fmt.Fprintf(w, "  → %s %s%s\n", b.Name, b.Input, status)
	case llm.BlockToolResult:
		mark := "←"
		if b.IsError {
			mark = "← error:"
		}
		fmt.Fprintln(w, indent(mark+" "+b.Content))
		for _, img := range b.Images {
			showBlock(w, img, calls)
		}
	case llm.BlockImage:
		fmt.Fprintf(w, "  [image %s, sha256 %s]\n", b.MediaType, b.Hash)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

func orUntitled(title string) string {
	if title == "" {
		return "(untitled)"
	}
	return title
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
