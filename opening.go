package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"pilot/backend/service"
)

// opening is the service (the database, the ledger, the project) opening
// while the window starts: once GTK is idle after showing the window
// (wailsbridge.WhenIdle), or when a call needs it, whichever comes first.
// Opened before the window, or beside GTK's start-up on the second core,
// it held the window back by 25 to 35 ms on the 2-core machine
// (docs/BENCHMARKS.md, "Where the start-up time goes"); the page then
// takes hundreds of milliseconds to load before its first call, so the
// service is open by then.
type opening struct {
	ctx  context.Context
	o    service.Options
	once sync.Once
	done chan struct{}
	svc  *service.Service
	err  error
}

// errClosed: the window closed before the service was needed.
var errClosed = errors.New("the window closed before Pilot opened its data")

func newOpening(ctx context.Context, o service.Options) *opening {
	return &opening{ctx: ctx, o: o, done: make(chan struct{})}
}

// start opens the service, once, in a goroutine.
func (op *opening) start() {
	op.once.Do(func() {
		go func() {
			defer close(op.done)
			op.svc, op.err = service.Open(op.ctx, op.o)
			if op.err != nil {
				op.err = fmt.Errorf("Pilot could not open its data under %s: %w. Close Pilot, then repair or move that folder, or start Pilot with another PILOT_HOME", op.o.Home, op.err)
			}
		}()
	})
}

// wait starts the service if it has not started, and returns it once it
// is open, or why it could not open.
func (op *opening) wait() (*service.Service, error) {
	op.start()
	return op.opened()
}

// opened waits for a start that someone else makes.
func (op *opening) opened() (*service.Service, error) {
	<-op.done
	return op.svc, op.err
}

// close closes the service, waiting for it if it is opening; a service
// that never started never will.
func (op *opening) close() {
	op.once.Do(func() {
		op.err = errClosed
		close(op.done)
	})
	if s, err := op.opened(); err == nil {
		s.Close()
	}
}
