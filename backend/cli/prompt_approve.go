package cli

import (
	"fmt"
	"io"
	"strings"

	"pilot/backend/cli/visible"
	"pilot/backend/wire"
)

// noTerminal is the feedback the model gets when nobody can approve.
const noTerminal = "nobody is at a terminal to approve it (pilot runs without one); the user can allow changes with --approve edits or all"

// approveLoop answers approvals one at a time, in order.
func (t *terminal) approveLoop() {
	for a := range t.approvals {
		t.decide(a)
	}
}

// decide asks the user on the terminal, or refuses when there is none.
func (t *terminal) decide(a wire.Approval) {
	if a.Kind == wire.ApprovalElicitation {
		t.answerForm(a)
		return
	}
	yes, always, feedback := false, false, noTerminal
	switch a.Kind {
	case wire.ApprovalNetwork:
		feedback = "nobody is at a terminal to approve it (pilot runs without one); the user can allow the host with `pilot rules add allow network " + a.Host + "`"
	case wire.ApprovalCommand:
		if a.NoSandbox != "" { // asked only because the sandbox cannot start: say so, and what would help
			feedback = "nobody is at a terminal to approve it (pilot runs without one), and it could not run in the sandbox. " + a.NoSandbox + " (--approve all runs commands without the sandbox.)"
		}
	case wire.ApprovalOutsideSandbox:
		feedback = "nobody is at a terminal to approve it (pilot runs without one); only --approve all runs commands outside the sandbox without asking"
	}
	if a.AskRule != "" {
		feedback = "nobody is at a terminal to approve it (pilot runs without one), and the rule " + a.AskRule + " of a settings file asks about it every time, whatever --approve says; run pilot in a terminal to answer, or change that file's permissions.ask"
	}
	if t.interactive {
		feedback = ""
		t.describe(a)
		shown := lineFields(a) // the command, host, server, reason: the model's and servers' text
		offer := len(a.AlwaysRules) > 0
		if offer {
			fmt.Fprintf(t.tio.Stderr, "[a]lways adds: %s\n", strings.Join(shown.AlwaysRules, "; "))
		} else if a.NoAlways != "" {
			fmt.Fprintln(t.tio.Stderr, shown.NoAlways)
		}
		yes, always, feedback = t.ask(question(shown, offer), offer)
	}
	t.mu.Lock()
	if t.json {
		decision := "rejected"
		if yes {
			decision = "approved"
		}
		t.line(jsonApproval{Type: "approval", ID: a.ID, Kind: string(a.Kind), Tool: a.Tool, Paths: a.Paths, Command: a.Command, Server: a.Server,
			McpTool: a.McpTool, Arguments: a.Arguments, Host: a.Host, Port: a.Port, Reason: a.Reason, AlwaysRules: a.AlwaysRules, Decision: decision})
	}
	t.mu.Unlock()
	if a.Kind != wire.ApprovalChange {
		t.answer.DecideCommand(a.ID, wire.CommandDecision{Approve: yes, AlwaysAllow: always, Feedback: feedback})
		return
	}
	v, err := t.answer.Change(a.ID)
	if err != nil {
		return // withdrawn meanwhile
	}
	d := wire.ChangeDecision{Feedback: feedback, AlwaysAllow: always}
	for _, f := range v.Files {
		hunks := make([]bool, len(f.Hunks))
		for i := range hunks {
			hunks[i] = yes
		}
		d.Files = append(d.Files, wire.FileDecision{Path: f.Path, Hunks: hunks})
	}
	t.answer.DecideChange(a.ID, d)
}

// question asks about a by its kind, its fields already made visible;
// always says whether [a]lways is offered.
func question(a wire.Approval, always bool) string {
	opts := "[y]es / [n]o"
	if always {
		opts += " / [a]lways"
	}
	switch a.Kind {
	case wire.ApprovalBudget:
		return a.Command + " [y/N] "
	case wire.ApprovalFetch:
		return fmt.Sprintf("%s (allows %s for this session)? %s ", a.Command, a.Host, opts)
	case wire.ApprovalOutsideSandbox:
		if a.Background {
			return fmt.Sprintf("Start `%s` as a background job OUTSIDE the sandbox, with your full rights (it runs on until stopped)? The agent says: %s %s ", a.Command, a.Reason, opts)
		}
		return fmt.Sprintf("Run `%s` OUTSIDE the sandbox, with your full rights? The agent says: %s %s ", a.Command, a.Reason, opts)
	case wire.ApprovalNetwork:
		return fmt.Sprintf("`%s` wants to reach %s:%d; allow %s for this session? %s ", a.Command, a.Host, a.Port, a.Host, opts)
	case wire.ApprovalMCP:
		return fmt.Sprintf("Call the tool \"%s\" of the MCP server \"%s\" with %s? %s ", a.McpTool, a.Server, a.Arguments, opts)
	case wire.ApprovalChange:
		return fmt.Sprintf("Apply this change to %s? %s ", strings.Join(a.Paths, ", "), opts)
	}
	run := "Run `" + a.Command + "`"
	if a.Background {
		run = "Start `" + a.Command + "` as a background job (it runs on until stopped, at the latest when this run ends)"
	}
	if a.NoSandbox != "" {
		return fmt.Sprintf("%s (not sandboxed: %s)? %s ", run, a.NoSandbox, opts)
	}
	return fmt.Sprintf("%s? %s ", run, opts)
}

// describe shows a change's diff on stderr.
func (t *terminal) describe(a wire.Approval) {
	if a.Kind != wire.ApprovalChange {
		return
	}
	v, err := t.answer.Change(a.ID)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLine()
	for _, f := range v.Files {
		suffix := ""
		if f.IsNew {
			suffix = " (new file)"
		}
		fmt.Fprintf(t.tio.Stderr, "--- %s%s\n", visible.Line(f.Path), suffix)
		for _, h := range f.Hunks {
			fmt.Fprintf(t.tio.Stderr, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			for _, l := range h.Lines {
				fmt.Fprintf(t.tio.Stderr, "%s%s\n", marker(string(l.Kind)), visible.Block(l.Text)) // a line of the file: its backslashes are its own
			}
		}
	}
}

// ask reads y, n or a from the terminal; on no, it asks for feedback.
func (t *terminal) ask(q string, allowAlways bool) (yes, always bool, feedback string) {
	for {
		fmt.Fprint(t.tio.Stderr, q)
		line, err := t.in.ReadString('\n')
		ans := strings.ToLower(strings.TrimSpace(line))
		switch {
		case ans == "y" || ans == "yes":
			return true, false, ""
		case allowAlways && (ans == "a" || ans == "always"):
			return true, true, ""
		case ans == "n" || ans == "no" || ans == "" || err == io.EOF:
			if err != nil {
				return false, false, "the user declined"
			}
			fmt.Fprint(t.tio.Stderr, "Tell the agent why (optional): ")
			fb, _ := t.in.ReadString('\n')
			return false, false, strings.TrimSpace(fb)
		}
		if err != nil {
			return false, false, "the user declined"
		}
	}
}

func marker(kind string) string {
	switch kind {
	case "add":
		return "+"
	case "del":
		return "-"
	}
	return " "
}
