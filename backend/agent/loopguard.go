package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"pilot/backend/llm"
)

// loopGuard counts identical tool calls in a row across a turn's answers.
// Calls are compared as the model sent them: the name and the input
// (compacted when it is JSON), so malformed calls, whose input the
// history keeps as {}, are the same only when they were sent the same.
type loopGuard struct {
	key string
	n   int
	// The call that repeated, as sentences show it (set when it trips).
	name, input string
}

// see counts a call (name and input as sent) and reports whether it is
// the limit-th identical one in a row.
func (g *loopGuard) see(name, sent string, limit int) bool {
	var in bytes.Buffer
	if json.Compact(&in, []byte(sent)) != nil {
		in.Reset()
		in.WriteString(sent)
	}
	key := name + "\x00" + in.String()
	if key == g.key {
		g.n++
	} else {
		g.key, g.n = key, 1
	}
	if g.n < limit {
		return false
	}
	g.name, g.input = shownName(name), shownInput(in.String())
	return true
}

// sent is what the model sent for u: its name and input, or, for a
// malformed call, the name and input as they came.
func sent(u llm.ContentBlock, bad map[string]badCall) (name, input string) {
	if c, ok := bad[u.ID]; ok {
		return c.name, c.sent
	}
	return u.Name, string(u.Input)
}

// stoppedResult is the result of the call that tripped the guard.
func (g *loopGuard) stoppedResult(limit int) string {
	return fmt.Sprintf("Not run: you made this same %s call %d times in a row (input %s), so the turn was stopped. Try a different approach, or ask the user.", g.name, limit, g.input)
}

// laterResult is the result of each call after the one that tripped it.
func (g *loopGuard) laterResult(limit int) string {
	return fmt.Sprintf("Not run: the turn was stopped by the loop guard before this call: the same %s call (input %s) was made %d times in a row.", g.name, g.input, limit)
}

// notice is the turn's notice.
func (g *loopGuard) notice(limit int) string {
	return fmt.Sprintf("The agent called %s with the same input %d times in a row (%s), so the turn was stopped.", g.name, limit, g.input)
}

// maxShownInput bounds the input a sentence quotes.
const maxShownInput = 120

// shownName is a tool name as sentences show it.
func shownName(name string) string {
	if name == "" {
		return unnamedTool
	}
	return visible(name, 80)
}

// shownInput is an input as sentences show it: cut, and escaped where it
// holds anything a terminal would act on or hide.
func shownInput(in string) string {
	if in == "" {
		return "(empty)"
	}
	return visible(in, maxShownInput)
}

// visible cuts s at max runes (marking the cut) and writes every rune
// that is not plainly visible (control characters, bidirectional
// overrides, invisible format characters, invalid UTF-8) as \u{XXXX}.
func visible(s string, max int) string {
	var b strings.Builder
	n := 0
	for i, r := range s {
		if n == max {
			fmt.Fprintf(&b, "… (%d more bytes)", len(s)-i)
			break
		}
		n++
		switch {
		case r == utf8.RuneError:
			b.WriteString(`\u{FFFD}`)
		case unicode.IsGraphic(r): // letters, marks, numbers, punctuation, symbols, spaces
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\u{%X}`, r)
		}
	}
	return b.String()
}
