package agent

import (
	"slices"
	"sync/atomic"

	"pilot/backend/frontmatter"
	"pilot/backend/skills"
	"pilot/backend/wire"
)

// loadSkills finds the session's skills (the user's, PILOT_HOME's and its
// folder's) for a turn: its system prompt lists them, and the skill tool
// serves them until the next turn finds them again. Each SKILL.md that
// cannot be used is told to the user in a notice (the chat, stderr
// headless) at the session's first turn and whenever the list of them
// changes.
func (l *live) loadSkills() skills.Set {
	set := skills.Load(l.setupFolders())
	found(l, &l.skills, set, unusables(set.Problems), wire.NoticeSkills, "skill not used")
	return set
}

// currentSkills is what the last turn found (none before the first).
func (l *live) currentSkills() skills.Set { return last(&l.skills) }

// setupFolders are where a turn looks for skills and custom agents: the
// user's home, PILOT_HOME and the session's folder.
func (l *live) setupFolders() (home, pilotHome, dir string) {
	o := l.m.opt.Sandbox
	return o.home(), o.PilotHome, l.root.Dir()
}

// unusable is a file a turn found that cannot be used (a skill, a custom
// agent), and why.
type unusable struct{ path, reason, text string }

// unusables are the files a load could not use (nil when none).
func unusables(problems []frontmatter.Problem) []unusable {
	var out []unusable
	for _, p := range problems {
		out = append(out, unusable{path: p.Path, reason: p.Reason, text: p.String()})
	}
	return out
}

// lastFound is what a turn found (skills, custom agents) with the files it
// could not use.
type lastFound[S any] struct {
	set    S
	unused []unusable
}

// found keeps what the turn found in at and tells the user each file that
// cannot be used, at the session's first turn and whenever the list of
// them changes.
func found[S any](l *live, at *atomic.Pointer[lastFound[S]], set S, unused []unusable, kind wire.NoticeKind, log string) {
	prev := at.Swap(&lastFound[S]{set: set, unused: unused})
	same := func(a, b unusable) bool { return a.path == b.path && a.reason == b.reason }
	if prev != nil && slices.EqualFunc(prev.unused, unused, same) {
		return
	}
	for _, u := range unused {
		l.m.log.Warn(log, "path", u.path, "why", u.reason)
		l.notice(string(kind), u.text+".", 0)
	}
}

// last is what the last turn found (none before the first).
func last[S any](at *atomic.Pointer[lastFound[S]]) S {
	if p := at.Load(); p != nil {
		return p.set
	}
	var none S
	return none
}
