package agent

import (
	"os"
	"strings"

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
	o := l.m.opt.Sandbox
	home := o.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	set := skills.Load(home, o.PilotHome, l.root.Dir())
	if prev := l.skills.Swap(&set); prev == nil || problemKey(*prev) != problemKey(set) {
		for _, p := range set.Problems {
			l.m.log.Warn("skill not used", "path", p.Path, "why", p.Reason)
			l.notice(string(wire.NoticeSkills), p.String()+".", 0)
		}
	}
	return set
}

// currentSkills is what the last turn found (none before the first).
func (l *live) currentSkills() skills.Set {
	if p := l.skills.Load(); p != nil {
		return *p
	}
	return skills.Set{}
}

func problemKey(s skills.Set) string {
	var b strings.Builder
	for _, p := range s.Problems {
		b.WriteString(p.Path + "\x00" + p.Reason + "\x00")
	}
	return b.String()
}
