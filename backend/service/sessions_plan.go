package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/agent"
	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/wire"
)

// modeWords says what each mode a plan can be approved into (ask, edits)
// lets through.
var modeWords = map[permission.Mode]string{
	permission.ModeAsk:   "every change and command is shown to the user for approval",
	permission.ModeEdits: "file changes are applied, commands run in the sandbox without asking (or are shown for approval where it cannot start)",
}

// SetMode sets a session's mode (plan, ask, edits, all, none) and
// stores it; a running turn takes it from its next model call.
func (se *Sessions) SetMode(ctx context.Context, id int64, mode string) (wire.SessionSummary, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	pm, err := permission.ParseMode(mode)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	if err := se.store.Sessions.SetApprovalMode(ctx, id, string(pm)); err != nil {
		return wire.SessionSummary{}, fmt.Errorf("the mode could not be saved: %w", err)
	}
	if err := se.agent.SetApprovalMode(ctx, id, string(pm)); err != nil {
		return wire.SessionSummary{}, err
	}
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return present.Session(s), nil
}

// ApprovedLine is what the transcript shows of the message that starts a
// plan's work (the plan itself is on its card just above); the model
// reads the whole plan. %s is the mode.
const ApprovedLine = "Plan approved — switching to %s"

// ApprovePlan leaves plan mode for mode and starts the work: the plan as
// the user approved it (perhaps edited) is the first message of the new
// turn, shown in the transcript as ApprovedLine. When the turn cannot
// start, the session stays in plan mode.
func (se *Sessions) ApprovePlan(ctx context.Context, id int64, mode, plan string) (wire.SessionSummary, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	pm, err := permission.ParseMode(mode)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	words, ok := modeWords[pm]
	if !ok {
		return wire.SessionSummary{}, errors.New("Choose the mode to carry out the plan in: edits or ask.")
	}
	if strings.TrimSpace(plan) == "" {
		return wire.SessionSummary{}, errors.New("The plan is empty: write the plan to approve, or keep planning.")
	}
	if se.agent.Running(id) {
		return wire.SessionSummary{}, agent.ErrBusy
	}
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	prev := s.ApprovalMode
	v, err := se.SetMode(ctx, id, string(pm))
	if err != nil {
		return wire.SessionSummary{}, err
	}
	text := fmt.Sprintf("I approve this plan. Carry it out now, in %s mode (%s).\n\n%s", pm, words, strings.TrimSpace(plan))
	if err := se.agent.SendCommand(context.WithoutCancel(ctx), id, fmt.Sprintf(ApprovedLine, pm), text, nil); err != nil {
		if _, rerr := se.SetMode(ctx, id, prev); rerr != nil {
			se.log.Warn("restoring the mode after a plan could not start", "session", id, "err", rerr)
		}
		return wire.SessionSummary{}, err
	}
	return v, nil
}
