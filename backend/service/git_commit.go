package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"pilot/backend/diff"
	"pilot/backend/git"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// draftTimeout bounds the model call that drafts a commit message.
const draftTimeout = 60 * time.Second

// draftDiffChars is how much of the diff the model is shown.
const draftDiffChars = 12000

const draftPrompt = "Write a git commit message for the change below: a subject line of at most 72 characters " +
	"in the imperative mood, then a blank line and a short body saying what changed and why, when the " +
	"change is not obvious from the subject. Reply with the message only, no quotes or code fences.\n\n"

// commitFiles is what a commit of a session holds, as unified-diff-like
// text for the model.
type commitFiles struct {
	names []string
	text  string
}

// sessionChanges reads what a commit of the session would hold: its
// worktree's uncommitted files (a worktree session) or the files its
// ledger says it changed (a folder session).
func (gi *Git) sessionChanges(ctx context.Context, sess store.Session) (commitFiles, error) {
	var out commitFiles
	var b strings.Builder
	add := func(path, old, new string) {
		out.names = append(out.names, path)
		if b.Len() > draftDiffChars {
			return
		}
		fmt.Fprintf(&b, "--- %s\n", path)
		for _, h := range diff.Compute(old, new).Hunks() {
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			for _, l := range h.Lines {
				mark := " "
				switch l.Kind {
				case "add":
					mark = "+"
				case "del":
					mark = "-"
				}
				b.WriteString(mark + l.Text + "\n")
			}
		}
	}
	if sess.Worktree.Path != "" {
		br, err := gi.worktreeSession(ctx, sess.ID)
		if err != nil {
			return out, err
		}
		// What a commit would hold: the worktree against its branch's
		// last commit, not the whole branch.
		files, err := br.git.BranchChanges(ctx, sess.Worktree.Path, "HEAD")
		if err != nil {
			return out, err
		}
		for _, f := range files {
			if f.Binary {
				out.names = append(out.names, f.Path)
				fmt.Fprintf(&b, "--- %s (binary)\n", f.Path)
				continue
			}
			add(f.Path, string(f.Base), string(f.Now))
		}
	} else {
		v, err := gi.ledger.View(ctx, sess.ID)
		if err != nil {
			return out, err
		}
		for _, f := range v.Files {
			if f.Kind == "" || f.Listed {
				continue // back to what it was, or not kept (in .git, ignored): not committed
			}
			d, err := gi.ledger.FileDiff(ctx, sess.ID, f.Path)
			if err != nil {
				return out, err
			}
			add(f.Path, d.OldText, d.NewText)
		}
	}
	out.text = b.String()
	if utf8.RuneCountInString(out.text) > draftDiffChars {
		out.text = string([]rune(out.text)[:draftDiffChars]) + "\n[the rest of the diff is left out]\n"
	}
	return out, nil
}

// DraftCommitMessage asks the session's model for a commit message of
// what Commit would commit. The call is bounded (draftTimeout) and ends
// when ctx does; without a provider it says so and what to do.
func (gi *Git) DraftCommitMessage(ctx context.Context, sessionID int64) (string, error) {
	if err := gi.waitStarted(ctx); err != nil {
		return "", err
	}
	sess, err := gi.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return "", fmt.Errorf("session %d: %w", sessionID, err)
	}
	ch, err := gi.sessionChanges(ctx, sess)
	if err != nil {
		return "", err
	}
	if len(ch.names) == 0 {
		return "", fmt.Errorf("session %d has no change to commit: %w", sessionID, ErrInvalid)
	}
	p, err := gi.svc.Turns.providerFor(ctx, sess)
	if err != nil {
		return "", fmt.Errorf("no model can draft the commit message, so write it yourself: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, draftTimeout)
	defer cancel()
	prompt := draftPrompt
	if sess.Title != "" {
		prompt += "The session that made it was titled: " + sess.Title + "\n\n"
	}
	text, used, err := p.Complete(ctx, llm.Request{Model: sess.Model, MaxTokens: 400,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(prompt + ch.text)}}}})
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "", fmt.Errorf("drafting the commit message was cancelled: %w", ctx.Err())
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("the model did not draft a message within %s: write it yourself, or try again", draftTimeout)
		}
		return "", fmt.Errorf("the model could not draft a message (%v): write it yourself, or try again", err)
	}
	if used != (llm.Usage{}) {
		cost, _ := p.Facts.Cost(used)
		if err := gi.store.Sessions.UpdateUsage(ctx, sessionID, used, cost); err != nil {
			gi.log.Warn("commit message usage", "session", sessionID, "err", err)
		}
	}
	msg := cleanMessage(text)
	if msg == "" {
		return "", errors.New("the model answered with no message: write it yourself, or try again")
	}
	return msg, nil
}

// cleanMessage drops code fences and surrounding blank lines.
func cleanMessage(s string) string {
	var lines []string
	for l := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			continue
		}
		lines = append(lines, strings.TrimRight(l, " \t"))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// Commit commits what a session changed with message: for a
// worktree session everything in its worktree, on its branch; for a
// folder session only the files the session changed (its ledger), in the
// user's repository, leaving whatever else the user staged out.
func (gi *Git) Commit(ctx context.Context, sessionID int64, message string) (wire.CommitResult, error) {
	if err := gi.waitStarted(ctx); err != nil {
		return wire.CommitResult{}, err
	}
	message = strings.TrimSpace(message)
	if message == "" {
		return wire.CommitResult{}, fmt.Errorf("a commit needs a message: write one, or draft it with the session's model: %w", ErrInvalid)
	}
	sess, err := gi.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return wire.CommitResult{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	g, err := git.Find(ctx)
	if err != nil {
		return wire.CommitResult{}, err
	}
	var commit string
	var files []string
	if sess.Worktree.Path != "" {
		if _, err := gi.worktreeSession(ctx, sessionID); err != nil {
			return wire.CommitResult{}, err
		}
		commit, files, err = g.CommitAll(ctx, sess.Worktree.Path, message)
	} else {
		proj, perr := gi.project(ctx, sess.ProjectID)
		if perr != nil {
			return wire.CommitResult{}, perr
		}
		if _, err := g.Toplevel(ctx, proj.Path); err != nil {
			return wire.CommitResult{}, err
		}
		v, verr := gi.ledger.View(ctx, sessionID)
		if verr != nil {
			return wire.CommitResult{}, verr
		}
		var paths []string
		for _, f := range v.Files {
			if f.Kind != "" && !f.Listed { // a listed file (in .git, ignored) is not committed
				paths = append(paths, f.Path)
			}
		}
		commit, files, err = g.CommitPaths(ctx, proj.Path, message, paths)
	}
	if errors.Is(err, git.ErrNothingToCommit) {
		return wire.CommitResult{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	if err != nil {
		return wire.CommitResult{}, err
	}
	return wire.CommitResult{Commit: commit, Files: files}, nil
}
