package cli

import (
	"errors"
	"fmt"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
)

// runArgs is a parsed `pilot -p` or `pilot repl` command line.
type runArgs struct {
	prompt   string
	project  string
	resume   int64
	approve  wire.ApprovalMode
	provider string
	model    string
	json     bool
	worktree string // --worktree NAME: a new session in a new git worktree
	elicit   elicitMode
}

// elicitMode is how a headless run answers an MCP server's form (--elicit).
type elicitMode string

const (
	elicitDecline  elicitMode = "decline"  // decline, said on stderr
	elicitDefaults elicitMode = "defaults" // accept with the form's defaults (SEP-1034)
)

// errHelp: the command line asks for the usage (--help or -h).
var errHelp = errors.New("help")

// parseRun reads the command line of `pilot -p` (withPrompt) or `pilot
// repl`; when it asks for help (printed, exit 0) or is wrong (a one-line
// reason, exit 2), ok is false and code is the exit code.
func parseRun(args []string, withPrompt bool, tio IO) (a runArgs, code int, ok bool) {
	a, err := parseRunArgs(args, withPrompt)
	if errors.Is(err, errHelp) {
		fmt.Fprint(tio.Stdout, usage)
		return a, exitOK, false
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return a, exitUsage, false
	}
	return a, exitOK, true
}

// parseRunArgs reads the flags of `pilot -p PROMPT` (withPrompt) or
// `pilot repl`; --flag=value and --flag value both work.
func parseRunArgs(args []string, withPrompt bool) (runArgs, error) {
	a := runArgs{approve: wire.ModeAsk, elicit: elicitDecline}
	seenPrompt := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if withPrompt && !seenPrompt {
				a.prompt, seenPrompt = arg, true
				continue
			}
			if withPrompt {
				return a, fmt.Errorf("unexpected argument %q: put the whole prompt in quotes, pilot -p \"...\"", arg)
			}
			return a, fmt.Errorf("unexpected argument %q (pilot help lists the flags)", arg)
		}
		if arg == "--help" || arg == "-h" {
			return a, errHelp
		}
		if name == "json" {
			if hasValue {
				return a, errors.New("--json takes no value")
			}
			a.json = true
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return a, fmt.Errorf("%s needs a value", arg)
			}
			i++
			value = args[i]
		}
		switch name {
		case "p", "prompt":
			if !withPrompt {
				return a, fmt.Errorf("%s is not a flag of pilot repl", arg)
			}
			if value == "--help" || value == "-h" {
				return a, errHelp
			}
			a.prompt, seenPrompt = value, true
		case "project":
			a.project = value
		case "resume":
			id, ok := storedID(value)
			if !ok {
				return a, fmt.Errorf("--resume needs a session id (a number), not %q", value)
			}
			a.resume = id
		case "approve":
			m, err := service.ParseMode(value)
			if err != nil {
				return a, err
			}
			a.approve = m
		case "provider":
			a.provider = value
		case "model":
			a.model = value
		case "worktree":
			a.worktree = value
		case "elicit":
			if value != string(elicitDecline) && value != string(elicitDefaults) {
				return a, fmt.Errorf("--elicit is decline or defaults, not %q", value)
			}
			a.elicit = elicitMode(value)
		default:
			return a, fmt.Errorf("unknown flag %s (pilot help lists the flags)", arg)
		}
	}
	if a.worktree != "" && a.resume != 0 {
		return a, errors.New("--worktree starts a new session in a new worktree and --resume continues one: give only one of them")
	}
	if withPrompt && strings.TrimSpace(a.prompt) == "" {
		return a, errors.New(`-p needs a prompt: pilot -p "what to do", or pilot -p - to read it from stdin`)
	}
	return a, nil
}
