package llm

import (
	"context"
	"errors"
	"io"
	"time"
)

// Default silences after which a request is given up (see
// Config.StreamIdleTimeout). Anthropic sends ping events while it works, so
// 90 s without a byte means the connection is dead. Chat completions send
// nothing while a reasoning model thinks, and local servers nothing while
// they load a model or read a long prompt: those get 5 minutes.
const (
	DefaultAnthropicIdle = 90 * time.Second
	DefaultOpenAIIdle    = 5 * time.Minute
)

// silence is the cause of a KindStalled error: how long nothing arrived.
type silence time.Duration

func (s silence) Error() string {
	return "nothing arrived for " + roundDuration(time.Duration(s))
}

// watch gives a request up when the server sends nothing for idle: while
// the request waits for the response headers, and during each read of the
// body. Time between reads (the consumer is busy) does not count.
type watch struct {
	idle   time.Duration
	ctx    context.Context // the request's
	cancel context.CancelCauseFunc
	timer  *time.Timer // nil when idle <= 0: no watch
}

// startWatch derives the request's context from ctx and starts the clock.
func startWatch(ctx context.Context, idle time.Duration) *watch {
	w := &watch{idle: idle}
	w.ctx, w.cancel = context.WithCancelCause(ctx)
	if idle > 0 {
		w.timer = time.AfterFunc(idle, func() { w.cancel(silence(idle)) })
	}
	return w
}

// pause stops the clock; resume restarts it for a whole idle period.
func (w *watch) pause() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

func (w *watch) resume() {
	if w.timer != nil {
		w.timer.Reset(w.idle)
	}
}

// stalled returns a KindStalled error if the watch gave the request up.
func (w *watch) stalled() *Error {
	var s silence
	if errors.As(context.Cause(w.ctx), &s) {
		return &Error{Kind: KindStalled, Err: s}
	}
	return nil
}

// end stops the watch and releases the request's context.
func (w *watch) end() {
	w.pause()
	w.cancel(nil)
}

// watchedBody is a response body read under its request's watch; a read
// the watch gave up fails with the KindStalled error.
type watchedBody struct {
	io.ReadCloser
	w *watch
}

func (b *watchedBody) Read(p []byte) (int, error) {
	b.w.resume()
	n, err := b.ReadCloser.Read(p)
	b.w.pause()
	if err != nil {
		if e := b.w.stalled(); e != nil {
			return n, e
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	err := b.ReadCloser.Close()
	b.w.end()
	return err
}
