package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pilot/backend/hostexec"
	"pilot/backend/projectroot"
	"pilot/backend/wire"
)

// check syncs paths with their servers (changed: as after a change; else
// only the files not open yet) and gathers what the servers say, within
// the Manager's wait.
func (m *Manager) check(ctx context.Context, root string, paths []string, changed bool) Outcome {
	root = filepath.Clean(root)
	var out Outcome
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return out
	}
	pathEnv := envValue(m.opts.Env, "PATH")
	type group struct {
		cfg  ServerConfig
		exe  string
		rels []string
	}
	var groups []*group
	said := map[string]bool{} // languages whose missing server this outcome names
	for _, p := range paths {
		rel, ok := relative(root, p)
		if !ok {
			continue
		}
		cfg, exe, serving, skipped := m.serverFor(rel, pathEnv, root)
		switch {
		case len(serving) == 0: // no server for this kind of file
			continue
		case exe == "":
			if s := missing(serving, rel, said, skipped); s != "" {
				out.Missing = append(out.Missing, s)
			}
			continue
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.cfg.Name == cfg.Name })
		if i < 0 {
			groups = append(groups, &group{cfg: cfg, exe: exe})
			i = len(groups) - 1
		}
		if !slices.Contains(groups[i].rels, rel) {
			groups[i].rels = append(groups[i].rels, rel)
		}
	}
	if len(groups) == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Wait)
	defer cancel()
	results := make(chan serverResult, len(groups))
	for _, g := range groups {
		go func() { results <- m.checkOne(ctx, g.cfg, g.exe, root, g.rels, changed) }()
	}
	// A server stuck writing is given up a moment after the wait (or the
	// caller) ends.
	hard := make(chan struct{})
	defer context.AfterFunc(ctx, func() { time.AfterFunc(100*time.Millisecond, func() { close(hard) }) })()
	all := map[string][]lspDiagnostic{}
	pending := map[string]bool{}
	for _, g := range groups {
		pending[g.cfg.Name] = true
	}
collect:
	for range groups {
		select {
		case r := <-results:
			delete(pending, r.name)
			out.Failed = append(out.Failed, r.failed...)
			out.Restarted = append(out.Restarted, r.restarted...)
			if r.timedOut {
				out.TimedOut = append(out.TimedOut, r.name)
			} else if len(r.failed) == 0 {
				out.Answered = append(out.Answered, r.name)
			}
			for abs, items := range r.diags {
				all[abs] = append(all[abs], items...)
			}
			out.ServerTime = max(out.ServerTime, r.serverTime)
		case <-hard:
			break collect
		}
	}
	for _, g := range groups {
		if pending[g.cfg.Name] {
			out.TimedOut = append(out.TimedOut, g.cfg.Name)
		}
	}
	out.Diagnostics, out.Checked = convert(root, all)
	return out
}

// serverResult is what one server said.
type serverResult struct {
	name       string
	diags      map[string][]lspDiagnostic // absolute path → diagnostics
	timedOut   bool
	failed     []string
	restarted  []string
	serverTime time.Duration
}

// checkOne syncs rels with one server and waits for its diagnostics.
func (m *Manager) checkOne(ctx context.Context, cfg ServerConfig, exe, root string, rels []string, changed bool) serverResult {
	res := serverResult{name: cfg.Name}
	timedOut := func() serverResult {
		res.timedOut = true
		return res
	}
	c, failed, err := m.client(ctx, cfg, exe, root)
	if c != nil {
		res.restarted = failed // it crashed before and runs again: what it says now is true
	} else {
		res.failed = failed
	}
	if c == nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return timedOut()
		}
		return res
	}
	m.use(c, 1)
	defer m.use(c, -1)
	if err := c.wait(ctx); err != nil {
		if ctx.Err() != nil {
			return timedOut()
		}
		res.failed = append(res.failed, m.failed(c, err)...)
		return res
	}
	asked := rels
	if !changed { // Current: what is open already answers as it is
		rels = slices.DeleteFunc(slices.Clone(rels), func(rel string) bool {
			return c.isOpen(filepath.Join(root, filepath.FromSlash(rel)))
		})
	}
	r, err := c.sync(ctx, rels)
	if err == nil && len(r.want)+len(r.gone) > 0 && !c.await(ctx, r) {
		err = ctx.Err()
		if err == nil {
			err = errors.New("it stopped while checking")
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			res.timedOut = true
			// What else came is true; the changed files' old diagnostics
			// are not.
			res.diags, _ = c.collect(r.seq0, nil, r.gone)
			return res
		}
		res.failed = append(res.failed, m.failed(c, err)...)
		return res
	}
	var last time.Time
	res.diags, last = c.collect(r.seq0, r.want, r.gone)
	for _, rel := range asked { // open files' current diagnostics
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if _, ok := res.diags[abs]; !ok {
			res.diags[abs] = c.current(abs)
		}
	}
	if !last.IsZero() {
		res.serverTime = last.Sub(r.sent)
	}
	return res
}

// serverFor finds the server for rel in root: the first that serves it
// and is installed where Pilot runs programs from (hostexec.Find: an
// absolute PATH entry, outside the projects). serving lists every server
// that would serve it; exe is "" when none of them is installed, and
// skipped then says where those found only elsewhere were.
func (m *Manager) serverFor(rel, pathEnv, root string) (cfg ServerConfig, exe string, serving []ServerConfig, skipped []error) {
	for _, c := range m.configs {
		if !c.serves(rel) || len(c.Command) == 0 {
			continue
		}
		serving = append(serving, c)
		if exe == "" {
			p, err := hostexec.Find(c.Command[0], pathEnv, root)
			var skip *hostexec.SkippedError
			switch {
			case err == nil:
				cfg, exe = c, p
			case errors.As(err, &skip):
				skipped = append(skipped, err)
			}
		}
	}
	if exe != "" {
		skipped = nil
	}
	return cfg, exe, serving, skipped
}

// missing says that no server for the file's language is installed, the
// first time in one outcome (said); "" after, and where those found only
// where Pilot does not run programs from were (skipped). The agent tells
// it once per session.
func missing(serving []ServerConfig, rel string, said map[string]bool, skipped []error) string {
	lang := serving[0].languageOf(rel)
	if said[lang] {
		return ""
	}
	said[lang] = true
	names := make([]string, len(serving))
	for i, c := range serving {
		names[i] = c.Command[0]
	}
	s := fmt.Sprintf("no %s language server found (install %s)", lang, strings.Join(names, " or "))
	for _, err := range skipped {
		s += "; " + err.Error()
	}
	return s
}

// relative turns p (relative to root, or absolute inside it) into a
// clean '/'-separated path; false for a path outside root.
func relative(root, p string) (string, bool) {
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return "", false
		}
		p = r
	}
	p = filepath.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return filepath.ToSlash(p), true
}

// severities maps LSP's severities to Pilot's; a diagnostic without one
// is taken as an error (the specification leaves it to the client).
var severities = map[int]wire.DiagnosticSeverity{
	0: wire.SeverityError, 1: wire.SeverityError, 2: wire.SeverityWarning,
	3: wire.SeverityInfo, 4: wire.SeverityHint,
}

// convert turns servers' diagnostics (by absolute path) into Pilot's:
// paths relative to root, 1-based lines and columns in characters, errors
// and warnings only, sorted. checked lists every file inside root.
func convert(root string, byFile map[string][]lspDiagnostic) (diags []wire.Diagnostic, checked []string) {
	r, err := projectroot.New(root)
	if err == nil {
		defer r.Close()
	}
	for abs, items := range byFile {
		rel, ok := relative(root, abs)
		if !ok {
			continue
		}
		checked = append(checked, rel)
		var text *string
		for _, d := range items {
			sev := severities[d.Severity]
			if sev != wire.SeverityError && sev != wire.SeverityWarning {
				continue
			}
			if text == nil {
				var b []byte
				if r != nil {
					b, _ = readSource(r, rel) // the columns are counted in its text, when it can be read
				}
				s := string(b)
				text = &s
			}
			col := d.Range.Start.Character + 1
			if line, ok := lineOf(*text, d.Range.Start.Line); ok {
				col = column(line, d.Range.Start.Character)
			}
			diags = append(diags, wire.Diagnostic{
				Path: rel, Line: d.Range.Start.Line + 1, Col: col,
				Severity: sev, Message: d.Message, Source: d.Source,
			})
		}
	}
	slices.SortFunc(diags, func(a, b wire.Diagnostic) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return strings.Compare(a.Message, b.Message)
	})
	slices.Sort(checked)
	return diags, checked
}
