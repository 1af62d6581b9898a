package agent

import (
	"strings"

	"pilot/backend/wire"
)

// tellNotRead tells the user which of the project's instruction files the
// system prompt left out and why (a link out of the project, a FIFO: each
// error a sentence naming the file and what to do), in a notice (the
// chat; stderr headless) and the log, at the session's first turn and
// whenever the list changes.
func (l *live) tellNotRead(errs []error) {
	var b strings.Builder
	for _, err := range errs {
		b.WriteString(err.Error() + "\x00")
	}
	key := b.String()
	if prev := l.notRead.Swap(&key); prev != nil && *prev == key {
		return
	}
	for _, err := range errs {
		l.m.log.Warn("project file not read", "err", err)
		l.notice(string(wire.NoticeFiles), err.Error(), 0)
	}
}
