package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"pilot/backend/service"
	"pilot/backend/wire"
)

// Repl runs `pilot repl [--project DIR] [--resume ID] [flags]`: the
// terminal conversation of the original REPL. "You:" prompts for a
// message, the answer streams back, `exit` or Ctrl+D leaves, and Ctrl+C
// cancels the running turn (at the prompt it only reminds how to leave).
func Repl(ctx context.Context, args []string, tio IO) int {
	a, code, ok := parseRun(args, false, tio)
	if !ok {
		return code
	}
	// Ctrl+C must not end the REPL, so the REPL handles the signals itself
	// and runs on a context that only SIGTERM ends.
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()

	h, err := openHeadless(base, a, tio)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	defer h.close()
	fmt.Fprintf(tio.Stderr, "Pilot in %s, session %d (%s). Type /help for commands, /exit or Ctrl+D to leave; Ctrl+C stops an answer.\n", h.project, h.sess.ID, h.sess.Model)

	lines := make(chan string)
	readErr := make(chan error, 1)
	next := make(chan struct{})
	go func() {
		for range next {
			line, err := h.term.in.ReadString('\n')
			if err != nil && line == "" {
				readErr <- err
				return
			}
			lines <- line
		}
	}()
	defer close(next)
	for {
		fmt.Fprint(tio.Stdout, "You: ")
		next <- struct{}{}
		var line string
	read:
		for {
			select {
			case line = <-lines:
				break read
			case err := <-readErr:
				fmt.Fprintln(tio.Stdout)
				if err == io.EOF {
					return exitOK
				}
				fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
				return exitFailure
			case s := <-sig:
				if s == syscall.SIGTERM {
					return exitOK
				}
				fmt.Fprint(tio.Stderr, "\n(type /exit or press Ctrl+D to leave)\nYou: ")
			}
		}
		text := strings.TrimSpace(line)
		switch text {
		case "":
			continue
		case "exit", "quit":
			return exitOK
		}
		if h.isReviewLine(base, text) {
			if err := h.review(base, text); err != nil {
				fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
			}
			continue
		}
		if isREPLCommand(text) {
			if h.command(base, text, tio) {
				return exitOK
			}
			continue
		}
		if code, done := h.replTurn(base, text, sig, tio); done {
			return code
		}
	}
}

// replTurn runs one turn; Ctrl+C cancels it, SIGTERM cancels it and ends
// the REPL.
func (h *headless) replTurn(ctx context.Context, text string, sig <-chan os.Signal, tio IO) (int, bool) {
	typed := text
	text, err := h.svc.Turns.ExpandCommand(ctx, h.sess.ID, text)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		if errors.Is(err, service.ErrUnknownCommand) {
			fmt.Fprint(tio.Stderr, replHelp())
		}
		return 0, false
	}
	if text == typed {
		typed = "" // not a command
	}
	if err := h.svc.Turns.Send(ctx, h.sess.ID, typed, text); err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return 0, false
	}
	quit := false
	for {
		select {
		case reason := <-h.term.done:
			if quit {
				return exitOK, true
			}
			switch reason {
			case wire.EndTurn, wire.EndCancelled:
			case wire.EndPlan:
				replPlanReady(tio)
			default:
				h.exit(reason)
			}
			fmt.Fprintln(tio.Stdout)
			return 0, false
		case s := <-sig:
			quit = quit || s == syscall.SIGTERM
			_ = h.svc.Turns.Cancel(h.sess.ID)
		}
	}
}
