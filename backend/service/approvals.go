package service

import (
	"errors"
	"fmt"
	"strings"

	"pilot/backend/approval"
	"pilot/backend/mcp"

	"pilot/backend/wire"
)

// Approvals answers the question a turn waits on: a change or a command
// to approve.
type Approvals struct{ *core }

// Change returns a pending change with every file's hunks.
func (a *Approvals) Change(approvalID string) (wire.ChangeView, error) {
	return a.agent.Approvals().Change(approvalID)
}

// ProposedText is the text a pending change proposes for one of its files
// (the start of the user's edit).
func (a *Approvals) ProposedText(approvalID, path string) (string, error) {
	v, err := a.agent.Approvals().Change(approvalID)
	if err != nil {
		return "", fmt.Errorf("this change is no longer waiting for a decision: %w", err)
	}
	for _, f := range v.Files {
		if f.Path == path {
			return f.NewText, nil
		}
	}
	return "", fmt.Errorf("the change proposes nothing for %s", path)
}

// DecideChange answers a pending change.
func (a *Approvals) DecideChange(approvalID string, d wire.ChangeDecision) error {
	if err := a.agent.Approvals().DecideChange(approvalID, d); err != nil {
		return fmt.Errorf("this change is no longer waiting for a decision: %w", err)
	}
	return nil
}

// DecideCommand answers a pending command.
func (a *Approvals) DecideCommand(approvalID string, d wire.CommandDecision) error {
	if err := a.agent.Approvals().DecideCommand(approvalID, d); err != nil {
		return fmt.Errorf("this command is no longer waiting for a decision: %w", err)
	}
	return nil
}

// DecideElicitation answers a pending form of an MCP server: content that
// does not fit it is refused with what is wrong, and the form stays.
func (a *Approvals) DecideElicitation(approvalID string, d wire.ElicitationDecision) error {
	err := a.agent.Approvals().DecideElicitation(approvalID, d)
	switch {
	case errors.Is(err, approval.ErrBadDecision):
		return fmt.Errorf("not sent: %s", strings.TrimPrefix(err.Error(), approval.ErrBadDecision.Error()+": "))
	case err != nil:
		return fmt.Errorf("this form is no longer waiting for an answer: %w", err)
	}
	return nil
}

// FormDefaults is the answer made of a form's default values (SEP-1034),
// with the required fields that have none: a headless run's
// --elicit=defaults.
var FormDefaults = mcp.Defaults
