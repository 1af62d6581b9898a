package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"pilot/backend/llm"
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// WriteMarkdown writes a session as a Markdown document for people: the
// conversation in order, thinking as quotes, tool calls with their input,
// status and approval, tool results and proposed changes in code fences.
func (s *Store) WriteMarkdown(ctx context.Context, sessionID int64, w io.Writer) error {
	t, err := s.exportTranscript(ctx, sessionID)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, t.Markdown())
	return err
}

// Markdown renders the transcript.
func (t Transcript) Markdown() string {
	var b strings.Builder
	x := t.Session
	title := x.Title
	if title == "" {
		title = fmt.Sprintf("Session %d", x.ID)
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- Project: `%s`\n", t.Project.Path)
	fmt.Fprintf(&b, "- Model: %s (%s)\n", x.Model, x.Provider)
	fmt.Fprintf(&b, "- Created: %s, updated: %s\n", x.CreatedAt.UTC().Format(time.RFC3339), x.UpdatedAt.UTC().Format(time.RFC3339))
	u := x.Usage
	fmt.Fprintf(&b, "- Tokens: %d in, %d out, %d cache read, %d cache write; cost $%.4f\n",
		u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, x.CostUSD)
	if x.ParentSessionID != 0 {
		fmt.Fprintf(&b, "- Forked from session %d at message %d\n", x.ParentSessionID, x.ParentMessageID)
	}
	if todos := t.Todos(); len(todos) > 0 {
		done, total := todo.Count(todos)
		fmt.Fprintf(&b, "\n## Task list (%d of %d done)\n\n%s", done, total, todo.Markdown(todos))
	}
	calls := map[string]ToolCall{}
	helpers := map[string][]ToolCall{} // a task call's helper's calls
	for _, c := range t.ToolCalls {
		calls[c.ToolUseID] = c
		if c.ParentToolUseID != "" {
			helpers[c.ParentToolUseID] = append(helpers[c.ParentToolUseID], c)
		}
	}
	changes := map[int64][]Change{}
	for _, c := range t.Changes {
		changes[c.ToolCallID] = append(changes[c.ToolCallID], c)
	}
	for _, m := range t.Messages {
		role := "User"
		if m.Role == llm.RoleAssistant {
			role = "Assistant"
		}
		if m.State != wire.MessageComplete {
			role += " (" + string(m.State) + ")"
		}
		fmt.Fprintf(&b, "\n## %s\n", role)
		for _, blk := range m.Content {
			writeBlock(&b, blk, calls, changes)
			if blk.Type == llm.BlockToolUse {
				writeHelperCalls(&b, helpers[blk.ID])
			}
		}
	}
	return b.String()
}

func writeBlock(b *strings.Builder, blk llm.ContentBlock, calls map[string]ToolCall, changes map[int64][]Change) {
	switch blk.Type {
	case llm.BlockText:
		fmt.Fprintf(b, "\n%s\n", blk.Text)
	case llm.BlockThinking:
		b.WriteString("\n> **Thinking**\n>\n> " + strings.ReplaceAll(blk.Thinking, "\n", "\n> ") + "\n")
	case llm.BlockToolUse:
		fmt.Fprintf(b, "\n**Tool call** `%s`", blk.Name)
		c, ok := calls[blk.ID]
		if ok {
			fmt.Fprintf(b, " — %s", c.Status)
			if c.Approval != ApprovalNone {
				fmt.Fprintf(b, ", %s", c.Approval)
			}
			if c.Feedback != "" {
				fmt.Fprintf(b, " (%q)", c.Feedback)
			}
		}
		b.WriteString("\n\n" + fenced("json", indentJSON(blk.Input)))
		for _, ch := range changes[c.ID] {
			writeChange(b, ch)
		}
	case llm.BlockToolResult:
		label := "Tool result"
		if blk.IsError {
			label += " (error)"
		}
		fmt.Fprintf(b, "\n**%s**\n\n%s", label, fenced("", blk.Content))
		for _, img := range blk.Images {
			writeImage(b, img)
		}
	case llm.BlockImage:
		writeImage(b, blk)
	}
}

// writeHelperCalls lists the calls a task call's helper made.
func writeHelperCalls(b *strings.Builder, cs []ToolCall) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(b, "\nThe helper's tool calls:\n")
	for _, c := range cs {
		var in bytes.Buffer
		if json.Compact(&in, c.Input) != nil {
			in.Reset()
			in.Write(c.Input)
		}
		fmt.Fprintf(b, "\n- `%s` `%s` — %s\n\n%s", c.Name, in.String(), c.Status, fenced("", c.Output))
	}
}

// writeImage writes an image as a data: URL when its bytes were read
// (Store.exportImages), else a note with its hash.
func writeImage(b *strings.Builder, img llm.ContentBlock) {
	if img.Data == "" {
		fmt.Fprintf(b, "\n*[image %s, sha256 %s: not stored any more]*\n", img.MediaType, img.Hash)
		return
	}
	fmt.Fprintf(b, "\n![image %s](data:%s;base64,%s)\n", img.MediaType, img.MediaType, img.Data)
}

func writeChange(b *strings.Builder, c Change) {
	state := "not applied"
	if c.Applied {
		state = "applied"
	}
	fmt.Fprintf(b, "\nChange to `%s` (%s)\n\n", c.Path, state)
	var diff strings.Builder
	for i, h := range c.Hunks {
		fmt.Fprintf(&diff, "%s hunk %d: %s\n%s", h.Header, i+1, h.Decision, h.Text) // from 1, as the tool results say
		if !strings.HasSuffix(h.Text, "\n") {
			diff.WriteByte('\n')
		}
	}
	b.WriteString(fenced("diff", diff.String()))
	if c.UserEdited != nil {
		b.WriteString("\nEdited by the user to:\n\n" + fenced("", *c.UserEdited))
	}
}

// fenced puts text in a code fence longer than any backtick run inside it.
func fenced(lang, text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fence + lang + "\n" + text + fence + "\n"
}

func indentJSON(raw json.RawMessage) string {
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return string(raw)
	}
	return out.String()
}
