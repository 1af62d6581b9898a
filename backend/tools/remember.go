package tools

import (
	"context"

	"pilot/backend/memory"
	"pilot/backend/toolname"
)

// RememberTool adds a line to the user's own instruction file, outside
// the project; the agent shows it as a change and writes it itself
// (memory.WriteUser), never through the project's root or ledger.
const RememberTool = toolname.Remember

// maxRemember is the longest line remember takes.
const maxRemember = 500

// RememberParams is the input of remember.
type RememberParams struct {
	Text string `json:"text" desc:"The line to remember, short and in the imperative: what to do, not what was said."`
}

func labelRemember(p RememberParams) string {
	return "→ Remembering: " + truncate(memory.RememberLine(p.Text), 80)
}

// remember proposes the user's file with the line added: the file is
// Pilot's choice (memory.UserFile), only the line is the model's.
func remember(_ context.Context, d Deps, p RememberParams) (Result, error) {
	line := memory.RememberLine(p.Text)
	switch {
	case line == "":
		return errorf("Nothing to remember: give the line in text."), nil
	case len(line) > maxRemember:
		return errorf("The line is %d characters long; remember takes at most %d. Say it in one short sentence.", len(line), maxRemember), nil
	case d.UserHome == "":
		return errorf("Not done: Pilot knows no home folder for this user, so there is no instruction file of theirs to add to. Tell the user the line, so they can keep it themselves."), nil
	}
	name, abs := memory.UserFile(d.UserHome)
	old, existed, mode, err := memory.ReadUser(abs)
	if err != nil {
		return errorf("Not done: %s could not be read (%v). Tell the user the line, so they can add it themselves.", name, err), nil
	}
	text, changed := memory.WithLine(old, line)
	if !changed {
		return Result{Output: name + " already has this line; nothing to change."}, nil
	}
	c := FileChange{Path: name, Abs: abs, OldContent: old, NewContent: text, Existed: existed, Mode: mode}
	if existed {
		c.OldHash = hashContent([]byte(old))
	}
	return Result{Output: "Proposed: add a line to " + name + ".", Proposal: &Proposal{Tool: RememberTool, Files: []FileChange{c}}}, nil
}
