// Package cli runs Pilot without a window: `pilot version`, `pilot -p`,
// `pilot repl` and `pilot sessions ...` (the usage text below, and README).
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pilot/backend/service"
)

// IO is the terminal a command talks to.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

const usage = `Pilot, a desktop coding agent.

Usage:
  pilot [DIR]                   open the window (on the folder DIR: pilot . opens this one);
                                with a window already open, it comes forward on DIR instead
  pilot -p "PROMPT" [--project DIR] [--resume ID] [--approve plan|ask|edits|all|none]
           [--provider P] [--model M] [--json] [--worktree NAME] [--elicit decline|defaults]
                                one headless turn: the answer on stdout, tools on stderr;
                                --json prints one JSON object a line instead (README lists them);
                                --elicit: how an MCP server's request for input (a form) is
                                answered: decline (the default, said on stderr) or defaults
                                (accepted with the form's default values)
  pilot -p - [...]              the prompt is read from stdin: echo "what to do" | pilot -p -
  CMD | pilot -p "PROMPT" [...] the piped text is sent after the prompt and a blank line;
                                stdin that is a terminal is never read, anything else is read
                                to its end like cat does (give </dev/null to send the prompt
                                alone); more than 4 MiB on stdin is refused
  pilot repl [--project DIR] [--resume ID] [--approve MODE] [--provider P] [--model M]
           [--worktree NAME] [--elicit decline|defaults]
                                a conversation in the terminal
                                --worktree NAME: the new session works in a new git worktree
                                on the branch pilot/NAME, made from the project's HEAD
  pilot worktree list [--project DIR] [--json]
                                the project's worktree sessions: session id, branch, state, path
  pilot worktree discard SESSION --yes
                                remove a worktree session's worktree and branch (the session
                                stays as history)
  pilot sessions list|show|search|export|import|changes ...
                                past sessions (pilot sessions help)
  pilot sessions changes ID [--json]
                                what the session changed: every file each change or command
                                created, modified or deleted, in order
  pilot rewind SESSION --to MESSAGE_ID [--code|--conversation|--both] [--force]
                                restore files and/or the conversation to just before a message
  pilot models [--provider P] [--project DIR] [--json]
                                the models the configured server offers
  pilot mcp list|get NAME|add NAME ...|remove NAME|trust|login NAME|logout NAME
                                MCP servers (pilot mcp help)
  pilot rules list|add allow|deny TOOL PATTERN|remove ID [--project DIR] [--json]
                                the project's permission rules, invalid ones flagged;
                                a bad rule is refused with exit 2 (pilot rules help); the rules
                                of the settings files (.claude/settings.json ...) listed with them
  pilot trust [--project DIR] [--yes]
                                trust the project's .mcp.json and settings files (their servers,
                                allow rules and hooks) as they are now (pilot trust help)
  pilot setup [--project DIR] [--json]
                                list the hooks, skills, rules, MCP servers and commands found,
                                with file, scope and state, and the tool names hooks see
  pilot worktree merge SESSION [--hunks all|N,...] [--force]
                                bring a worktree session's branch (all hunks, or those numbered)
                                into the project folder as one undoable change; exit 1 when your
                                uncommitted changes conflict (nothing written without --force)
  pilot review [--branch SESSION|--uncommitted] [--project DIR] [--json]
                                a read-only review of the uncommitted changes (default) or a
                                worktree session's branch: findings as path:line: text lines
                                (pilot review --help)
  pilot doctor [--json]         check the sandbox of commands (bubblewrap, user namespaces,
                                Landlock, the proxy), git (found, version, 2.5 or newer
                                for worktrees) and rg, a sentence each;
                                exit 0 when everything needed is ready
  pilot version                 print version, commit and Wails version

--provider (or PILOT_PROVIDER): anthropic (ANTHROPIC_API_KEY); openai (any OpenAI-compatible server:
OPENAI_BASE_URL, OPENAI_API_KEY); or a known server, each with its own key variable:
openrouter (OPENROUTER_API_KEY), deepseek (DEEPSEEK_API_KEY), mistral (MISTRAL_API_KEY),
groq (GROQ_API_KEY), gemini (GEMINI_API_KEY), xai (XAI_API_KEY), and local servers
ollama, lmstudio, llamacpp (LLAMA_API_KEY), vllm (VLLM_API_KEY); their base URLs are
changed in Settings.
  pilot help                    this text
`

// Run executes a headless command and returns the process exit code.
func Run(ctx context.Context, args []string, tio IO) int {
	tio, done := visibleIO(args, tio)
	defer done()
	if strings.HasPrefix(args[0], "-p=") || strings.HasPrefix(args[0], "--prompt=") {
		return Prompt(ctx, args, tio)
	}
	switch args[0] {
	case "-p", "--prompt":
		return Prompt(ctx, args, tio)
	case "repl":
		return Repl(ctx, args[1:], tio)
	case "sessions":
		return runSessions(ctx, args[1:], tio)
	case "rewind":
		return runRewind(ctx, args[1:], tio)
	case "models":
		return Models(ctx, args[1:], tio)
	case "mcp":
		return runMCP(ctx, args[1:], tio)
	case "rules":
		return runRules(ctx, args[1:], tio)
	case "trust":
		return runTrust(ctx, args[1:], tio)
	case "setup":
		return runSetup(ctx, args[1:], tio)
	case "worktree":
		return runWorktree(ctx, args[1:], tio)
	case "doctor":
		return Doctor(ctx, args[1:], tio)
	case "review":
		return runReview(ctx, args[1:], tio)
	case "version", "--version":
		fmt.Fprint(tio.Stdout, service.Version().String())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(tio.Stdout, usage)
		return 0
	}
	what := "command"
	if strings.HasPrefix(args[0], "-") {
		what = "option"
	}
	fmt.Fprintf(tio.Stderr, "pilot: unknown %s %q.\n\n%s", what, args[0], usage)
	return exitUsage
}

// misuse writes "pilot " and the message of format and args, then the
// command's usage text, to w, and returns exitUsage: a wrong command line.
func misuse(w io.Writer, usage, format string, args ...any) int {
	fmt.Fprintf(w, "pilot %s\n%s", fmt.Sprintf(format, args...), usage)
	return exitUsage
}

// storedID reads the id of a stored session, message or rule as given on
// the command line: a decimal number above 0.
func storedID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

// parseFlags parses a command's flags (it takes no other arguments);
// done with the exit code when --help was asked (the usage on stdout) or
// the command line is wrong (the usage on stderr).
func parseFlags(fs *flag.FlagSet, args []string, tio IO, usage string) (code int, done bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprint(tio.Stdout, usage)
		return exitOK, true
	case err != nil:
		return misuse(tio.Stderr, usage, "%s: %v", fs.Name(), err), true
	case fs.NArg() > 0:
		return misuse(tio.Stderr, usage, "%s: unexpected argument %q", fs.Name(), fs.Arg(0)), true
	}
	return 0, false
}
