package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/diff"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Comments is the user's comments on lines of the session's diffs (a
// pending change, the Changes view, the Branch view, a plan), kept with
// the session, and the review that sends the drafts to the model as one
// message.
type Comments struct{ *core }

// ReviewLine is what the transcript shows of a review's message (the
// window folds the comments under it); %d is the number of comments.
const ReviewLine = "Review — %d comments"

// List returns a session's comments, oldest first.
func (c *Comments) List(ctx context.Context, sessionID int64) ([]wire.LineComment, error) {
	out, err := c.store.Comments.List(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("the comments of session %d could not be read: %w", sessionID, err)
	}
	if out == nil {
		out = []wire.LineComment{} // the window reads a list, never null
	}
	return out, nil
}

// Save adds a comment (ID 0) or changes one not sent yet.
func (c *Comments) Save(ctx context.Context, lc wire.LineComment) (wire.LineComment, error) {
	out, err := c.store.Comments.Save(ctx, lc)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return out, fmt.Errorf("this comment can no longer be changed (it was sent or deleted); reopen the session to see it: %w", err)
	case err != nil:
		return out, fmt.Errorf("the comment was not saved (it needs a file, a line from 1 and a known session): %w", err)
	}
	return out, nil
}

// Delete removes a comment not sent yet.
func (c *Comments) Delete(ctx context.Context, sessionID, id int64) error {
	if err := c.store.Comments.Delete(ctx, sessionID, id); err != nil {
		return fmt.Errorf("the comment was not deleted (a sent comment stays with its review): %w", err)
	}
	return nil
}

// SendReview sends the session's draft comments to the model as one
// message (ReviewText) that starts a turn, and marks them sent. A pending
// change is decided before (with its comments, DecideChange), and the
// turn it belongs to has ended: a running turn refuses the review.
func (c *Comments) SendReview(ctx context.Context, sessionID int64) error {
	all, err := c.List(ctx, sessionID)
	if err != nil {
		return err
	}
	var drafts []wire.LineComment
	var ids []int64
	for _, lc := range all {
		if lc.State == wire.CommentDraft && strings.TrimSpace(lc.Text) != "" {
			drafts = append(drafts, lc)
			ids = append(ids, lc.ID)
		}
	}
	if len(drafts) == 0 {
		return errors.New("there is no comment to send: write one on a line (the + beside its number) first")
	}
	if err := c.svc.Turns.Send(ctx, sessionID, fmt.Sprintf(ReviewLine, len(drafts)), ReviewText(drafts)); err != nil {
		return fmt.Errorf("the review was not sent (the comments stay drafts; send it again when the turn has ended): %w", err)
	}
	if err := c.store.Comments.MarkSent(ctx, sessionID, ids); err != nil {
		return fmt.Errorf("the review was sent, but its comments are still shown as drafts (delete them rather than send them again): %w", err)
	}
	return nil
}

// origins names where a comment was made, for the model.
var origins = map[wire.CommentOrigin]string{
	wire.CommentOnChange:  "on your proposed change",
	wire.CommentOnChanges: "on the session's changes",
	wire.CommentOnBranch:  "on the branch",
	wire.CommentOnPlan:    "on your plan",
}

// ReviewText is the message a review sends: each comment anchored as
// path:line with the line's text, where it was made, and what it says.
func ReviewText(comments []wire.LineComment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review of your work: %d comment%s on lines of files (path:line and the line's text as the diff showed it).\n",
		len(comments), map[bool]string{true: "", false: "s"}[len(comments) == 1])
	decided := false
	for i, lc := range comments {
		fmt.Fprintf(&b, "\n%d. %s, %s:\n%s\n", i+1, diff.Anchor(lc.Comment), origins[lc.Origin], strings.TrimSpace(lc.Text))
		decided = decided || lc.Origin == wire.CommentOnChange
	}
	if decided {
		b.WriteString("\nThe proposed change was decided with this review: its result says which hunks were applied.\n")
	}
	return b.String()
}
