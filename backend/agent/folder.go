package agent

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"pilot/backend/wire"
)

// maxDoing bounds the command quoted to the sessions that wait for it.
const maxDoing = 80

// hold takes the session's folder for a command or a change
// (ledger.Hold), so that no other session working in the same folder, in
// this process or another, changes files between this work's scans or
// writes: each effect is recorded for the session that made it, and a
// rewind of one never undoes another's. While it waits, the call's card
// and a notice (headless: a line on stderr) say for which session. It
// returns how long it waited; the error is ctx's when the turn was
// stopped meanwhile.
func (c *call) hold(ctx context.Context, doing string) (release func(), waited time.Duration, err error) {
	t, r := c.t, c.r
	l := t.l
	lg := l.m.ledger
	if lg == nil {
		return func() {}, 0, nil
	}
	if utf8.RuneCountInString(doing) > maxDoing {
		doing = string([]rune(doing)[:maxDoing-1]) + "…"
	}
	start := time.Now()
	release, err = lg.Hold(ctx, l.root.Dir(), l.who(context.WithoutCancel(ctx))+" ("+doing+")", func(holder string) {
		w := waitSentence(holder)
		l.m.out.output(l.id, r.use.ID, w+"\n")
		l.notice(string(wire.NoticeWait), w, 0)
	})
	if err != nil {
		return nil, 0, err
	}
	bg, held := context.WithoutCancel(ctx), release
	l.jobs.sweepJobs(bg) // what running jobs changed until now is theirs
	return func() { l.jobs.rebaseJobs(bg); held() }, time.Since(start), nil
}

// who names the session for the sessions that wait for it.
func (l *live) who(ctx context.Context) string {
	s, err := l.m.st.Sessions.Get(ctx, l.id)
	if err != nil || strings.TrimSpace(s.Title) == "" {
		return fmt.Sprintf("session %d", l.id)
	}
	return fmt.Sprintf("session %d “%s”", l.id, strings.TrimSpace(s.Title))
}

// waitSentence is what the card of a call waiting for the folder says.
func waitSentence(holder string) string {
	if holder == "" {
		holder = "another session"
	}
	return "Waiting for " + holder + " to finish in this folder: the changes of two sessions in one folder are made one after the other, so that each is recorded and undone apart. This call goes on as soon as it is done."
}

// waitNote tells the model that its call waited for another session.
func waitNote(waited time.Duration) string {
	if waited < time.Second {
		return ""
	}
	return fmt.Sprintf("\n(It waited %s for another session's work in this folder to finish before it ran.)", waited.Round(time.Second))
}
