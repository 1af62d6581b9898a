package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
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
	{reviewCommand, "[SCOPE]", "a read-only helper reviews the changes (branch, uncommitted, session); findings as path:line lines"},
}

func replHelp() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range replCommands {
		fmt.Fprintf(&b, "  %-16s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
	}
	b.WriteString("Sent to the model as a prompt:\n")
	for _, c := range service.BuiltinCommands() {
		fmt.Fprintf(&b, "  %-16s %s\n", strings.TrimSpace("/"+c.Name+" "+argsOf(c)), c.Description)
	}
	b.WriteString("  your own commands (.pilot/commands, .claude/commands) and skills, by name\n")
	b.WriteString("Anything else is sent to the model.\n")
	return b.String()
}

// isREPLCommand reports whether line is one of the REPL's own commands
// (or a slash line that names none and no prompt command either: /help
// answers it); other slash lines are prompt commands (/init, /remember,
// the user's own, skills), expanded and sent to the model.
func isREPLCommand(line string) bool {
	if !strings.HasPrefix(line, "/") {
		return false
	}
	name, _, _ := strings.Cut(line, " ")
	switch name {
	case "/quit":
		return true
	case reviewCommand: // the built-in one runs before (headless.isReviewLine); a command of the user's is a prompt
		return false
	}
	for _, c := range replCommands {
		if c.name == name {
			return true
		}
	}
	return !service.IsCommandLine(line)
}

// argsOf is how /help writes a built-in command's arguments.
func argsOf(c wire.SlashCommand) string {
	if c.ArgumentHint == "" {
		return "[TEXT]"
	}
	return "TEXT"
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
		err = listSessions(ctx, h.svc, sessionArgs{project: h.project}, tio.Stderr)
	case "/resume":
		err = h.resumeCommand(ctx, arg, tio)
	case "/compact":
		err = h.svc.Turns.Compact(ctx, h.sess.ID)
		if err == nil {
			fmt.Fprintf(tio.Stderr, "Compacted session %d: older turns are now a summary.\n", h.sess.ID)
		}
	default:
		fmt.Fprintf(tio.Stderr, "%s is not a command.\n%s", name, replHelp()) // "/", "/a b/c": not a command's name
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
	}
	return false
}

// clear starts a new session in the project with the current one's
// provider, model and mode; the current one goes if nobody wrote in it.
func (h *headless) clear(ctx context.Context, tio IO) error {
	s, err := h.svc.Sessions.Start(ctx, h.sess.ProjectID, service.SessionStart{Mode: h.runMode, Provider: h.sess.Provider, Model: h.sess.Model})
	if err != nil {
		return err
	}
	h.sess = s
	fmt.Fprintf(tio.Stderr, "New session %d.\n", s.ID)
	return nil
}

func (h *headless) model(ctx context.Context, id string, tio IO) error {
	if id == "" {
		model := h.sess.Model
		if h.runModel != "" {
			model = h.runModel
		}
		fmt.Fprintf(tio.Stderr, "Session %d uses %s (%s). /model ID switches it.\n", h.sess.ID, model, h.sess.Provider)
		return nil
	}
	s, err := h.svc.Sessions.SetModel(ctx, h.sess.ID, id)
	if err != nil {
		return err
	}
	h.sess, h.runModel = s, ""
	fmt.Fprintf(tio.Stderr, "Session %d now uses %s.\n", h.sess.ID, id)
	return nil
}

func (h *headless) resumeCommand(ctx context.Context, arg string, tio IO) error {
	id, ok := storedID(arg)
	if !ok {
		return errors.New("/resume needs a session id; /sessions lists them")
	}
	err := h.resume(ctx, id, h.sess.ProjectID)
	if errors.Is(err, service.ErrNoSession) {
		return fmt.Errorf("there is no session %d; /sessions lists this project's sessions", id)
	}
	if err != nil {
		return err
	}
	h.runModel = ""
	fmt.Fprintf(tio.Stderr, "Resumed session %d: %s (%s).\n", h.sess.ID, orUntitled(h.sess.Title), h.sess.Model)
	return nil
}
