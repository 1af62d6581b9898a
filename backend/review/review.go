// Package review is /review (and pilot review): a read-only helper
// reviews a set of changed files (the uncommitted changes of a project,
// or a worktree session's branch against its base) and returns its
// findings, each anchored on a line of the changes.
//
// The helper is a model conversation of its own with a fixed tool set:
// the read-only tools of backend/tools (list_files, read_file, glob,
// grep, customagent.ReadTools, the same as a task helper's) and
// report_finding. That it changes nothing is enforced here, not asked of
// the model: every call passes the gate as plan mode does (gate.Admit:
// a tool that is not read-only is refused) and must be one of the set;
// a refused call is answered with the gate's sentence and listed in
// Result.Refused. A finding is checked against the diff (anchors.place):
// kept on a line the diff shows, moved to the nearest changed line, or
// dropped, with a note each time it is not kept as given.
package review

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"time"

	"pilot/backend/customagent"
	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/projectroot"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// Limits of one review.
const (
	// MaxCalls is how many tool calls the reviewer may make; then it is
	// asked to end without tools.
	MaxCalls = 40
	// resultChars cuts what one call sends back.
	resultChars = 20_000
	// diffChars bounds the diff given to the reviewer.
	diffChars = 200_000
)

// ErrNothing is wrapped by Run's error when there is no change to review.
var ErrNothing = errors.New("review: no changes")

//go:embed review.md
var systemText string

var system = template.Must(template.New("review").Parse(systemText))

// Model is the model the reviewer runs on.
type Model struct {
	llm.Provider
	Name      string
	MaxTokens int
}

// Target is what is reviewed: the changed files in the review's form
// (wire.FileChange with hunks, as the Branch view shows them), read in
// the folder Dir; What names them for the model ("the uncommitted
// changes", "branch pilot/x against 1a2b3c4").
type Target struct {
	Dir   string
	What  string
	Files []wire.FileChange
}

// Result is what one review found.
type Result struct {
	Findings []wire.ReviewFinding // in the order reported, ID and SessionID unset
	Notes    []string             // a sentence for each finding not kept as given
	Refused  []string             // the calls refused, "name: the gate's sentence"
	Summary  string               // the reviewer's last words
	Usage    llm.Usage            // tokens of every call, summed
}

// reviewer is one review in progress.
type reviewer struct {
	m       Model
	reg     *tools.Registry
	report  tools.Tool
	defs    []llm.ToolDef
	anchors anchors
	calls   int
	res     Result
}

// Run reviews t with m. Its error is a sentence: no changes (ErrNothing),
// the folder cannot be opened, or the model failed.
func Run(ctx context.Context, m Model, t Target) (Result, error) {
	if len(t.Files) == 0 {
		return Result{}, fmt.Errorf("%w: %s has no changes to review; change something first, or review another branch", ErrNothing, t.What)
	}
	root, err := projectroot.New(t.Dir)
	if err != nil {
		return Result{}, fmt.Errorf("the folder to review, %s, cannot be opened (%w): check that it exists", t.Dir, err)
	}
	defer root.Close()
	r := &reviewer{m: m, reg: tools.New(tools.Deps{Root: root, Env: []string{}}), report: tools.NewReportFinding(), anchors: anchorsOf(t.Files)}
	for _, d := range r.reg.Defs() {
		if customagent.ReadTools[d.Name] {
			r.defs = append(r.defs, d)
		}
	}
	r.defs = append(r.defs, llm.ToolDef{Name: r.report.Name(), Description: r.report.Description(), InputSchema: r.report.Schema()})
	var sys strings.Builder
	if err := system.Execute(&sys, struct{ Dir, Date string }{t.Dir, time.Now().Format("Monday 2 January 2006")}); err != nil {
		return Result{}, err
	}
	msgs := []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(brief(t))}}}
	for {
		defs := r.defs
		last := r.calls >= MaxCalls
		if last {
			defs = nil
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(
				fmt.Sprintf("You have used your %d tool calls. End the review now in a sentence, without tools.", MaxCalls))}})
		}
		msg, err := r.ask(ctx, sys.String(), msgs, defs)
		if err != nil {
			return r.res, fmt.Errorf("the review stopped after %d tool calls: %w", r.calls, err)
		}
		msgs = append(msgs, msg)
		var results []llm.ContentBlock
		for _, b := range msg.Content {
			if b.Type == llm.BlockToolUse {
				results = append(results, r.run(ctx, b))
			}
		}
		if len(results) == 0 || last {
			r.res.Summary = strings.TrimSpace(llm.JoinText(msg.Content))
			return r.res, nil
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: results})
	}
}

// ask streams one answer of the reviewer's model: its text and its tool
// calls (one whose input is not JSON is kept with {} and its error).
func (r *reviewer) ask(ctx context.Context, sys string, msgs []llm.Message, defs []llm.ToolDef) (llm.Message, error) {
	ch, err := r.m.Stream(ctx, llm.Request{Model: r.m.Name, System: sys, Messages: msgs, Tools: defs, MaxTokens: r.m.MaxTokens})
	if err != nil {
		return llm.Message{}, err
	}
	var text strings.Builder
	var uses []llm.ContentBlock
	var used llm.Usage
	for ev := range ch {
		switch ev.Type {
		case llm.EventTextDelta:
			text.WriteString(ev.Text)
		case llm.EventToolDone:
			in := json.RawMessage(ev.Input)
			if ev.Err != nil || !json.Valid(in) {
				in = json.RawMessage("{}")
			}
			uses = append(uses, llm.ContentBlock{Type: llm.BlockToolUse, ID: ev.ToolID, Name: ev.ToolName, Input: in})
		case llm.EventUsage:
			used = ev.Usage
		case llm.EventError:
			err = ev.Err
		}
	}
	r.res.Usage = r.res.Usage.Add(used)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return llm.Message{}, err
	}
	content := []llm.ContentBlock{llm.TextBlock(text.String())}
	if text.Len() == 0 && len(uses) > 0 {
		content = nil
	}
	return llm.Message{Role: llm.RoleAssistant, Content: append(content, uses...)}, nil
}

// run runs one of the reviewer's calls through the gate and returns its
// result for the model.
func (r *reviewer) run(ctx context.Context, u llm.ContentBlock) llm.ContentBlock {
	r.calls++
	out := llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: u.ID}
	if why := r.refusal(u.Name); why != "" {
		r.res.Refused = append(r.res.Refused, u.Name+": "+why)
		out.Content, out.IsError = why, true
		return out
	}
	if u.Name == r.report.Name() {
		out.Content, out.IsError = r.record(u.Input)
		return out
	}
	res, err := r.reg.Execute(ctx, u.Name, u.Input)
	if err != nil {
		res = tools.Result{Output: fmt.Sprintf("The call failed: %v. Go on with what you have.", err), IsError: true}
	}
	out.Content, out.IsError = res.Output, res.IsError
	if len(out.Content) > resultChars {
		out.Content = strings.ToValidUTF8(out.Content[:resultChars], "") + fmt.Sprintf("\n[... cut at %d characters: read a narrower range]", resultChars)
	}
	return out
}

// refusal is why a call may not run ("" when it may): the gate refuses
// what changes anything as it does in plan mode, and of what only reads,
// only the reviewer's tools exist for it.
func (r *reviewer) refusal(name string) string {
	own := name == r.report.Name()
	t, known := r.reg.Get(name)
	if gate.Admit(permission.ModePlan, name, own || known && t.ReadOnly()) != "" {
		return "Not run: the reviewer only reads, so nothing was changed or run. Report what should change with report_finding."
	}
	if !own && !customagent.ReadTools[name] {
		names := make([]string, len(r.defs))
		for i, d := range r.defs {
			names[i] = d.Name
		}
		return "Not run: the reviewer's tools are " + strings.Join(names, ", ") + "."
	}
	return ""
}

// record checks and keeps a finding; the text tells the model where it
// landed.
func (r *reviewer) record(input json.RawMessage) (string, bool) {
	p, bad := tools.Params[tools.FindingParams](r.report, input)
	if bad != nil {
		return bad.Output, true
	}
	f, note, ok := r.anchors.place(wire.ReviewFinding{Path: p.Path, Line: p.Line, Text: p.Text})
	if note != "" {
		r.res.Notes = append(r.res.Notes, note)
	}
	if !ok {
		return note + " Report it on a + or context line of the diff.", true
	}
	r.res.Findings = append(r.res.Findings, f)
	if note != "" {
		return "Recorded. " + note, false
	}
	return fmt.Sprintf("Recorded on %s:%d.", f.Path, f.Line), false
}
