package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

// Exit codes of `pilot -p` and `pilot repl`.
const (
	exitCancelled = 130
)

// Prompt runs `pilot -p PROMPT [flags]`: one turn on the same agent as the
// window, the answer streamed to stdout, a progress line per tool on
// stderr. It returns 0 when the model finished its answer (or, with
// --approve plan, presented its plan), 130 when
// interrupted, and 1 (2 for a usage error) with a one-line reason
// otherwise.
func Prompt(ctx context.Context, args []string, tio IO) int {
	a, code, ok := parseRun(args, true, tio)
	if !ok {
		return code
	}
	in, err := promptText(ctx, a.prompt, tio.Stdin, tio.Stderr)
	if err != nil {
		return stdinFailed(ctx, err, tio)
	}
	h, err := openHeadless(ctx, a, tio)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	defer h.close()
	if h.isReviewLine(ctx, in.prompt) {
		return h.reviewRun(ctx, in)
	}
	reason, err := h.turn(ctx, in)
	h.stopJobs(ctx)
	var tooLarge *service.MessageTooLargeError
	if errors.As(err, &tooLarge) && in.read > 0 {
		err = pipedTooLarge(tooLarge, in.read)
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	return h.exit(reason)
}

// turn sends the prompt (a custom command expanded), then the piped
// text, and waits for the end of the turn; a cancelled ctx cancels the
// turn.
func (h *headless) turn(ctx context.Context, in stdinPrompt) (wire.TurnEndReason, error) {
	prompt, err := h.svc.Turns.ExpandCommand(ctx, h.sess.ID, in.prompt)
	if err != nil {
		return "", err
	}
	typed := ""
	if prompt != in.prompt && in.piped == "" {
		typed = in.prompt // the transcript shows the command as typed
	}
	in.prompt = prompt
	if err := h.svc.Turns.Send(ctx, h.sess.ID, typed, in.text()); err != nil {
		return "", err
	}
	select {
	case r := <-h.term.done:
		return r, nil
	case <-ctx.Done():
		// Every state of a turn ends at once when cancelled (streaming,
		// commands, helpers, MCP calls, fetches, compaction: see
		// interrupt_e2e_test.go); reads cannot block (non-regular files
		// are refused).
		_ = h.svc.Turns.Cancel(h.sess.ID)
		return <-h.term.done, nil
	}
}

// stopJobs stops the background jobs the run started (a run's jobs end
// with its turn, interrupted or not) and says which.
func (h *headless) stopJobs(ctx context.Context) {
	for _, j := range h.svc.Jobs.StopAll(context.WithoutCancel(ctx), h.sess.ID) {
		fmt.Fprintf(h.term.tio.Stderr, "pilot: stopped background job %s at the end of the run: %s\n", j.ID, visible.Line(j.Command))
	}
}

// stdinFailed reports a prompt that could not be read from stdin: exit 2
// when none was given or it is too big, 130 when interrupted, else 1.
func stdinFailed(ctx context.Context, err error, tio IO) int {
	if ctx.Err() != nil {
		fmt.Fprintln(tio.Stderr, "pilot: cancelled while reading stdin")
		return exitCancelled
	}
	fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
	var tooBig *stdinTooBigError
	if errors.Is(err, errNoPrompt) || errors.As(err, &tooBig) {
		return exitUsage
	}
	return exitFailure
}

// exit prints why a turn did not succeed and returns the exit code.
func (h *headless) exit(reason wire.TurnEndReason) int {
	why := ""
	switch reason {
	case wire.EndTurn:
		return exitOK
	case wire.EndPlan:
		h.planReady()
		return exitOK
	case wire.EndCancelled:
		fmt.Fprintln(h.term.tio.Stderr, "pilot: cancelled")
		return exitCancelled
	case wire.EndError:
		why = h.term.failure()
	case wire.EndLimit:
		why = "stopped at the limit of model calls in one turn"
	case wire.EndLoopGuard:
		why = "stopped: the agent repeated the same tool call"
	case wire.EndBudget:
		why = "stopped: the session reached its budget"
	case wire.EndMaxTokens:
		why = "the answer was cut at the model's output limit"
	}
	if why == "" {
		why = "the turn ended: " + string(reason)
	}
	fmt.Fprintf(h.term.tio.Stderr, "pilot: %s (session %d)\n", visible.Line(strings.TrimSuffix(why, ".")), h.sess.ID)
	return exitFailure
}
