package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"pilot/backend/store"
)

// replCommands are the REPL's slash commands, in the order /help lists them.
var replCommands = []struct{ name, args, help string }{
	{"/help", "", "this list"},
	{"/exit", "", "leave (Ctrl+D too)"},
	{"/clear", "", "start a new session in this project"},
	{"/model", "[ID]", "show the model, or switch this session to model ID"},
	{"/mode", "[MODE]", "show the mode, or switch it: plan, ask, edits, all, none"},
	{"/sessions", "", "this project's sessions, newest first"},
	{"/resume", "ID", "continue session ID"},
	{"/compact", "", "summarise the older turns to free the context window"},
}

func replHelp() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range replCommands {
		fmt.Fprintf(&b, "  %-16s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
	}
	b.WriteString("Anything else is sent to the model.\n")
	return b.String()
}

// command runs one slash command line; it reports whether the REPL ends.
// Its output goes to stderr, like the REPL's other notices, so stdout
// holds only the conversation.
func (h *headless) command(ctx context.Context, line string, tio IO) (exit bool) {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	var err error
	switch name {
	case "/help":
		fmt.Fprint(tio.Stderr, replHelp())
	case "/exit", "/quit":
		return true
	case "/clear":
		err = h.clear(ctx, tio)
	case "/model":
		err = h.model(ctx, arg, tio)
	case "/mode":
		err = h.mode(ctx, arg, tio)
	case "/sessions":
		err = replSessions(ctx, h.home, h.project, tio.Stderr)
	case "/resume":
		err = h.resume(ctx, arg, tio)
	case "/compact":
		err = h.m.CompactNow(ctx, h.sess.ID)
		if err == nil {
			fmt.Fprintf(tio.Stderr, "Compacted session %d: older turns are now a summary.\n", h.sess.ID)
		}
	default:
		fmt.Fprintf(tio.Stderr, "%s is not a command.\n%s", name, replHelp())
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
	}
	return false
}

// clear starts a new session in the project with the current one's
// provider, model and approval mode.
func (h *headless) clear(ctx context.Context, tio IO) error {
	s, err := h.st.CreateSession(ctx, store.NewSession{
		ProjectID: h.sess.ProjectID, Provider: h.sess.Provider, Model: h.sess.Model,
		ApprovalMode: string(h.args.approve), BudgetUSD: h.sess.BudgetUSD,
	})
	if err != nil {
		return err
	}
	if err := h.m.SetApprovalMode(ctx, s.ID, string(h.args.approve)); err != nil {
		return err
	}
	h.dropIfEmpty(h.sess.ID)
	h.sess = s
	fmt.Fprintf(tio.Stderr, "New session %d.\n", s.ID)
	return nil
}

func (h *headless) model(ctx context.Context, id string, tio IO) error {
	if id == "" {
		model := h.sess.Model
		if h.args.model != "" {
			model = h.args.model
		}
		fmt.Fprintf(tio.Stderr, "Session %d uses %s (%s). /model ID switches it.\n", h.sess.ID, model, h.sess.Provider)
		return nil
	}
	if err := h.st.SetModel(ctx, h.sess.ID, id); err != nil {
		return err
	}
	h.sess.Model, h.args.model = id, id
	fmt.Fprintf(tio.Stderr, "Session %d now uses %s.\n", h.sess.ID, id)
	return nil
}

func (h *headless) resume(ctx context.Context, arg string, tio IO) error {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return errors.New("/resume needs a session id; /sessions lists them")
	}
	s, err := h.st.Session(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("there is no session %d; /sessions lists this project's sessions", id)
	}
	if err != nil {
		return err
	}
	if s.ProjectID != h.sess.ProjectID {
		return fmt.Errorf("session %d belongs to another project; run pilot repl --resume %d there", id, id)
	}
	if err := h.m.SetApprovalMode(ctx, s.ID, string(h.args.approve)); err != nil {
		return err
	}
	if s.ID != h.sess.ID {
		h.dropIfEmpty(h.sess.ID)
	}
	h.sess, h.args.model = s, ""
	fmt.Fprintf(tio.Stderr, "Resumed session %d: %s (%s).\n", s.ID, orUntitled(s.Title), s.Model)
	return nil
}
