package cli

import (
	"context"
	"fmt"
)

// mode shows the session's mode, or switches it (and the mode of the
// sessions /clear starts) to arg.
func (h *headless) mode(ctx context.Context, arg string, tio IO) error {
	if arg == "" {
		fmt.Fprintf(tio.Stderr, "Session %d is in %s mode. /mode plan|ask|edits|all|none switches it.\n", h.sess.ID, h.runMode)
		return nil
	}
	s, err := h.svc.Sessions.SetMode(ctx, h.sess.ID, arg)
	if err != nil {
		return err
	}
	h.sess, h.runMode = s, s.ApprovalMode
	fmt.Fprintf(tio.Stderr, "Session %d is now in %s mode.\n", h.sess.ID, h.runMode)
	return nil
}

// replPlanReady tells the REPL user what to do with a presented plan.
func replPlanReady(tio IO) {
	fmt.Fprintln(tio.Stderr, "The plan is ready: answer with feedback to keep planning, or /mode edits (or ask) and tell the agent to carry it out.")
}
