package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"pilot/backend/sandbox"
	"slices"
	"strings"
	"sync"

	"pilot/backend/customagent"
	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/skills"
	"pilot/backend/toolname"
)

// ErrUnknownTool is returned for a tool name the registry does not hold.
var ErrUnknownTool = errors.New("tools: unknown tool")

// Deps is what the tools work with.
type Deps struct {
	Root  *projectroot.Root // the project; every path is resolved inside it
	Reads *ReadTracker      // files read in this session; nil: a fresh tracker
	Env   []string          // Pilot's environment, which run_bash filters through childenv.Env; nil: os.Environ()
	MCP   MCP               // the project's MCP servers; nil: none
	// Withheld reports whether a project rule denies tool the path rel
	// ('/'-separated, relative to the project root): read_file refuses it,
	// list_files, glob and grep leave it out and say how many they left
	// out. nil: nothing is withheld.
	Withheld func(tool, rel string) bool
	// Skills are the session's skills now (the skill tool is offered
	// only while there is one); nil: none.
	Skills func() skills.Set
	// Agents are the session's custom agents now (task's description
	// lists them); nil: none.
	Agents func() customagent.Set
	// Diagnostics answers the diagnostics tool from the session's
	// language servers; nil: none are set up (the tool says so).
	Diagnostics Diagnose
	// WebSearch reports whether a search service is set up now
	// (web_search is offered only then); nil: none.
	WebSearch func() bool
	// UserHome is the user's home folder, where remember finds their own
	// instruction file; "": none (remember says so).
	UserHome string
}

// withheld reports whether a project rule denies tool any of rels.
func (d Deps) withheld(tool string, rels ...string) bool {
	if d.Withheld == nil {
		return false
	}
	for _, rel := range rels {
		if d.Withheld(tool, rel) {
			return true
		}
	}
	return false
}

// withheldNote is the last line of a listing that left n entries out.
func withheldNote(n int) string {
	return fmt.Sprintf("(%s withheld by project rules that deny this tool those paths.)", plural(n, "entry"))
}

// ReadTracker remembers which files the agent has read in a session, so
// write_file can refuse to overwrite a file the model has never looked at.
// It is safe for concurrent use.
type ReadTracker struct {
	mu    sync.Mutex
	files map[string]bool // absolute paths
}

// NewReadTracker returns an empty tracker.
func NewReadTracker() *ReadTracker { return &ReadTracker{files: map[string]bool{}} }

// MarkRead records that the model has seen the file at abs.
func (t *ReadTracker) MarkRead(abs string) {
	t.mu.Lock()
	t.files[abs] = true
	t.mu.Unlock()
}

// HasRead reports whether the model has seen the file at abs.
func (t *ReadTracker) HasRead(abs string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.files[abs]
}

// Registry holds the tools of one session in their stable order.
type Registry struct {
	deps  Deps
	tools []Tool
}

// New builds the tools for a project and a session: list_files,
// read_file, glob, grep, diagnostics, write_file, patch_file, multi_patch, run_bash,
// job_output and job_stop, then the session's own todo_write and present_plan, remember, the definitions
// of task, web_fetch and web_search, which the loop runs, and skill.
func New(deps Deps) *Registry {
	if deps.Reads == nil {
		deps.Reads = NewReadTracker()
	}
	if deps.Env == nil {
		deps.Env = os.Environ()
	}
	r := &Registry{deps: deps}
	r.tools = []Tool{
		depTool(deps, toolname.ListFiles, true, labelListFiles, listFiles),
		depTool(deps, toolname.ReadFile, true, labelReadFile, readFile),
		depTool(deps, toolname.Glob, true, labelGlob, runGlob),
		depTool(deps, toolname.Grep, true, labelGrep, runGrep),
		depTool(deps, DiagnosticsTool, true, labelDiagnostics, runDiagnostics),
		depTool(deps, toolname.WriteFile, false, labelWriteFile, writeFile),
		depTool(deps, toolname.PatchFile, false, labelPatchFile, patchFile),
		depTool(deps, toolname.MultiPatch, false, labelMultiPatch, multiPatch),
		depTool(deps, toolname.RunBash, false, labelRunBash, runBash),
		newJobOutput(),
		newJobStop(),
		newTodoWrite(),
		newPresentPlan(),
		depTool(deps, RememberTool, false, labelRemember, remember),
		newTask(deps),
		newWebFetch(),
		newWebSearch(),
		depTool(deps, SkillTool, true, labelSkill, skillCall),
	}
	return r
}

// Tools returns the tools in registry order: the built-in ones
// (web_search only while a search service is set up, skill only while a
// skill is installed), then the MCP tools of the servers that are ready
// now.
func (r *Registry) Tools() []Tool {
	builtin := r.tools
	if len(r.deps.skills().Skills) == 0 {
		builtin = builtin[:len(builtin)-1] // skill is last
	}
	if r.deps.WebSearch == nil || !r.deps.WebSearch() {
		builtin = slices.DeleteFunc(slices.Clone(builtin), func(t Tool) bool { return t.Name() == WebSearchTool })
	}
	mcpTools := r.mcpTools()
	if len(mcpTools) == 0 {
		return builtin
	}
	return append(append(make([]Tool, 0, len(builtin)+len(mcpTools)), builtin...), mcpTools...)
}

// Defs returns the definitions sent to the model, in registry order.
func (r *Registry) Defs() []llm.ToolDef {
	all := r.Tools()
	defs := make([]llm.ToolDef, len(all))
	for i, t := range all {
		defs[i] = llm.ToolDef{Name: t.Name(), Description: t.Description(), InputSchema: t.Schema()}
	}
	return defs
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	for _, t := range r.Tools() {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// Label returns the progress line of a call; an unknown tool gets "→ name".
func (r *Registry) Label(name string, input json.RawMessage) string {
	if t, ok := r.Get(name); ok {
		return t.Label(input)
	}
	return "→ " + name
}

// Execute runs the call name(input). An unknown tool name is a model
// mistake and comes back as an error Result listing the real tools.
func (r *Registry) Execute(ctx context.Context, name string, input json.RawMessage) (Result, error) {
	t, ok := r.Get(name)
	if !ok {
		all := r.Tools()
		names := make([]string, len(all))
		for i, t := range all {
			names[i] = t.Name()
		}
		return errorf("There is no tool called %q. The tools are: %s.", name, strings.Join(names, ", ")), nil
	}
	return t.Execute(ctx, input)
}

// ApplyOptions is what the approval layer decided about a proposal.
type ApplyOptions struct {
	// Final holds the content to write for a FileChange.Path instead of its
	// NewContent: the user's edits, or only the approved hunks.
	Final map[string]string
	// Edited names the paths whose Final text the user wrote (rather than
	// a subset of the proposal's hunks): only those are reported as edited.
	Edited map[string]bool
	// OnOutput, when set, receives run_bash output as it arrives, from one
	// goroutine at a time.
	OnOutput func(chunk string)
	// Sandbox, when set, is the session's pod a command runs in; nil runs
	// it with the user's rights (mode all with sandbox: false, or no
	// sandbox on this machine and the user said yes).
	Sandbox *sandbox.Session
}

// Apply carries out an approved proposal: it writes the files (all or
// nothing, each atomically) or runs the command, and returns the Result for
// the model. A file that changed since the proposal is refused as a Result
// with IsError; I/O failures are errors (files already written are restored
// first). For a cancelled command the Result holds the output so far and
// the error is ctx.Err().
func (r *Registry) Apply(ctx context.Context, p *Proposal, opts ApplyOptions) (Result, error) {
	switch {
	case p == nil:
		return Result{}, errors.New("tools: Apply: nil proposal")
	case p.MCP != nil:
		return r.callMCP(ctx, p.MCP)
	case p.Command != nil:
		res, err := runCommand(ctx, *p.Command, r.deps.Env, opts.OnOutput, opts.Sandbox)
		if p.Note != "" {
			res.Output += "\n" + p.Note
		}
		return res, err
	case len(p.Files) > 0:
		return applyFiles(r.deps, p.Files, opts, p.Note)
	}
	return Result{}, fmt.Errorf("tools: Apply: empty proposal from %s", p.Tool)
}
