package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"pilot/backend/projectroot"
	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// DefaultTimeout is a hook's timeout when its settings give none (Claude
// Code's default).
const DefaultTimeout = 60 * time.Second

// Options are how a Set runs its hooks.
type Options struct {
	// Trusted says whether a project file's hooks may run (the user
	// trusted that content, the scripts its hooks name included). nil: no
	// project file is trusted. The user's own files need no trust.
	Trusted func(settingsjson.File) bool
	// Untrusted says why a project file is not trusted, in a sentence
	// (settingsjson.Untrusted: a script changed, a link out); nil: the
	// general sentence.
	Untrusted func(settingsjson.File) string
	// Env is the environment the hooks' environment is filtered from
	// (nil: Pilot's own).
	Env []string
	// Project is the project folder ($CLAUDE_PROJECT_DIR,
	// $PILOT_PROJECT_DIR).
	Project string
	// Timeout replaces DefaultTimeout for hooks that give none (tests).
	Timeout time.Duration
}

// Set is the hooks of a project's settings files, ready to run. The zero
// Set and a nil *Set run nothing. Safe for concurrent use.
type Set struct {
	opt       Options
	groups    map[Event][]group
	untrusted []string // sentences: project files whose hooks do not run
	ignored   []string // sentences: hooks and matchers that cannot run

	// scripts: a trusted project file's scripts as trusted, by file; each
	// run checks them again (settingsjson.Changed).
	scripts map[string][]settingsjson.Script
}

// group is one matcher group of one file.
type group struct {
	file    string
	matcher string
	all     bool
	names   []string       // exact names ("Edit|Write")
	re      *regexp.Regexp // other matchers
	hooks   []settingsjson.Hook
}

// New gathers the hooks of files (settingsjson.Load's result) that may
// run: those of the user's files, and those of trusted project files.
func New(files []settingsjson.File, o Options) *Set {
	s := &Set{opt: o, groups: map[Event][]group{}, scripts: map[string][]settingsjson.Script{}}
	known := map[Event]bool{}
	for _, e := range Events {
		known[e] = true
	}
	for _, f := range files {
		if f.Err != nil {
			var refused *projectroot.NotRead // a link out of the project, a FIFO: said, as nothing of it runs
			if len(f.Raw) > 0 || errors.As(f.Err, &refused) {
				s.ignored = append(s.ignored, f.Err.Error())
			}
			continue
		}
		if len(f.Hooks) == 0 {
			continue
		}
		if f.Scope.FromProject() && (o.Trusted == nil || !o.Trusted(f)) {
			why := fmt.Sprintf("The project's hooks in %s are not trusted, so they do not run: run `pilot trust` or accept the prompt to trust them.", f.Path)
			if o.Untrusted != nil {
				if w := o.Untrusted(f); w != "" {
					why = fmt.Sprintf("The project's hooks in %s do not run. %s", f.Path, w)
				}
			}
			s.untrusted = append(s.untrusted, why)
			continue
		}
		if f.Scope.FromProject() {
			s.scripts[f.Path] = f.Scripts
		}
		for name, gs := range f.Hooks {
			e := Event(name)
			if !known[e] {
				s.ignored = append(s.ignored, fmt.Sprintf("%s: the hook event %q is not one Pilot fires, so its hooks do not run.", f.Path, name))
				continue
			}
			for _, g := range gs {
				if grp, err := compile(f.Path, g); err != nil {
					s.ignored = append(s.ignored, err.Error())
				} else if len(grp.hooks) > 0 {
					s.groups[e] = append(s.groups[e], grp)
				}
			}
		}
	}
	return s
}

// simple is a matcher of exact names.
var simple = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// compile checks a group's matcher and hooks.
func compile(file string, g settingsjson.MatcherGroup) (group, error) {
	grp := group{file: file, matcher: g.Matcher}
	switch m := strings.TrimSpace(g.Matcher); {
	case m == "" || m == "*":
		grp.all = true
	case simple.MatchString(m):
		grp.names = strings.Split(m, "|")
	default:
		re, err := regexp.Compile(m)
		if err != nil {
			return grp, fmt.Errorf("%s: the hook matcher %q is not a regular expression Pilot can read (%v), so its hooks do not run: fix the matcher", file, g.Matcher, err)
		}
		grp.re = re
	}
	for _, h := range g.Hooks {
		if h.Type != "command" || strings.TrimSpace(h.Command) == "" {
			return grp, fmt.Errorf("%s: a hook of type %q (matcher %q) is not a command hook, the one type Pilot runs, so it does not run", file, h.Type, g.Matcher)
		}
		grp.hooks = append(grp.hooks, h)
	}
	return grp, nil
}

func (g group) match(e Event, subject string) bool {
	switch {
	case !e.matches() || g.all:
		return true
	case g.re != nil:
		return g.re.MatchString(subject)
	}
	for _, n := range g.names {
		if n == subject {
			return true
		}
	}
	return false
}

// Has reports whether any hook is set for the event.
func (s *Set) Has(e Event) bool { return s != nil && len(s.groups[e]) > 0 }

// Untrusted lists, one sentence each, the project files whose hooks do
// not run because they are not trusted.
func (s *Set) Untrusted() []string {
	if s == nil {
		return nil
	}
	return s.untrusted
}

// Ignored lists, one sentence each, the hooks that cannot run (an unknown
// event, a bad matcher, a hook type other than command, a broken file).
func (s *Set) Ignored() []string {
	if s == nil {
		return nil
	}
	return s.ignored
}

// Result is what the hooks of one event decided, merged.
type Result struct {
	Runs []wire.HookRun
	// Block: a hook exited 2 or decided "block"/"deny". Reason says why,
	// for the model (PreToolUse, PostToolUse, Stop) or the user
	// (UserPromptSubmit).
	Block  bool
	Reason string
	// Permission is a PreToolUse hook's say on the call: allow, deny, ask
	// or none. Deny comes with Block.
	Permission wire.HookDecision
	// Context is additional context for the model (additionalContext;
	// the plain output of UserPromptSubmit and SessionStart hooks).
	Context []string
	// Halt: a hook asked to stop (continue: false); StopReason is for the
	// user.
	Halt       bool
	StopReason string
	// Messages are for the user: systemMessage, non-blocking errors,
	// timeouts.
	Messages []string
}

// Run runs the hooks of in's event that match it, in parallel (the same
// command once), and merges what they decided. The event's JSON is
// in, with HookEventName set by the caller.
func (s *Set) Run(ctx context.Context, in Input) Result {
	res := Result{Permission: wire.HookNone}
	if !s.Has(in.HookEventName) {
		return res
	}
	if in.Cwd == "" {
		in.Cwd = s.opt.Project
	}
	type job struct {
		file string
		hook settingsjson.Hook
	}
	var jobs []job
	seen := map[string]bool{}
	for _, g := range s.groups[in.HookEventName] {
		if !g.match(in.HookEventName, in.subject()) {
			continue
		}
		for _, h := range g.hooks {
			if !seen[h.Command] {
				seen[h.Command] = true
				jobs = append(jobs, job{g.file, h})
			}
		}
	}
	if len(jobs) == 0 {
		return res
	}
	stdin, err := json.Marshal(in)
	if err != nil { // cannot happen: every field marshals
		stdin = []byte("{}")
	}
	outs := make([]outcome, len(jobs))
	changed := map[string][]string{} // a trusted file's scripts changed since it was read
	for _, j := range jobs {
		if _, ok := changed[j.file]; !ok {
			changed[j.file] = settingsjson.Changed(s.opt.Project, s.scripts[j.file])
		}
	}
	var wg sync.WaitGroup
	for i, j := range jobs {
		if c := changed[j.file]; len(c) > 0 {
			outs[i] = notRun(in.HookEventName, j.file, j.hook, c)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = s.exec(ctx, j.file, j.hook, in, stdin)
		}()
	}
	wg.Wait()
	for _, o := range outs {
		res.merge(o)
	}
	return res
}

// rank orders permission decisions: deny beats ask beats allow.
var rank = map[wire.HookDecision]int{wire.HookNone: 0, wire.HookError: 0, wire.HookAllow: 1, wire.HookAsk: 2, wire.HookDeny: 3}

func (r *Result) merge(o outcome) {
	r.Runs = append(r.Runs, o.run)
	if o.block {
		r.Block = true
		r.Reason = join(r.Reason, o.reason)
	}
	if o.permission != "" && rank[o.permission] > rank[r.Permission] {
		r.Permission = o.permission
	}
	r.Context = append(r.Context, o.context...)
	if o.halt {
		r.Halt = true
		r.StopReason = join(r.StopReason, o.stopReason)
	}
	r.Messages = append(r.Messages, o.messages...)
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
