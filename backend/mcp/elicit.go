package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/wire"
)

// Asker asks the user to fill an elicitation's form on the card of the
// call it came with, and waits for the answer; an error (the call's
// context ended: the turn was stopped) is answered cancel.
type Asker func(ctx context.Context, e wire.Elicitation) (wire.ElicitationDecision, error)

type askerKey struct{}

// WithAsker gives the calls made with ctx (Hub.Call) the one who answers
// their server's elicitations: the session whose turn made the call.
func WithAsker(ctx context.Context, ask Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, ask)
}

// running is a tool call of a server under way: its context, who
// answers an elicitation that comes while it runs (nil: no one), and its
// timeout's clock.
type running struct {
	ctx   context.Context
	ask   Asker
	clock *clock
}

// began notes a call of s as running until the returned func is called.
func (s *server) began(ctx context.Context, c *clock) (done func()) {
	ask, _ := ctx.Value(askerKey{}).(Asker)
	rc := &running{ctx: ctx, ask: ask, clock: c}
	s.mu.Lock()
	s.calls = append(s.calls, rc)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, c := range s.calls {
			if c == rc {
				s.calls = append(s.calls[:i], s.calls[i+1:]...)
				break
			}
		}
	}
}

// elicit is the client's ElicitationHandler: a server's elicitation/create
// goes to the oldest of its tool calls running (the protocol does not say
// which call a request belongs to), whose session shows the form. One
// that comes with none of its calls running, in URL mode (Pilot declares
// form mode only), or over the limits is declined and logged.
func (s *server) elicit(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	name := s.entry.Name
	decline := func(why string) (*sdk.ElicitResult, error) {
		s.h.log.Warn("mcp: declined an elicitation", "server", name, "why", why)
		return &sdk.ElicitResult{Action: string(wire.ElicitDecline)}, nil
	}
	s.mu.Lock()
	var rc *running
	if len(s.calls) > 0 {
		rc = s.calls[0]
	}
	s.mu.Unlock()
	p := req.Params
	switch {
	case rc == nil:
		return decline("none of its tool calls was running: Pilot shows a server's questions only on the card of its call")
	case p.Mode == "url":
		return decline("it asked in URL mode, which Pilot does not offer")
	case rc.ask == nil:
		return decline("no one can answer it here (the call was not made by a session's turn)")
	}
	form, err := Form(name, p.Message, p.RequestedSchema)
	if err != nil {
		return decline(err.Error())
	}
	rc.clock.pause()
	d, err := rc.ask(rc.ctx, form)
	rc.clock.resume()
	if err != nil {
		return &sdk.ElicitResult{Action: string(wire.ElicitCancel)}, nil
	}
	switch d.Action {
	case wire.ElicitAccept:
		values, err := CheckAnswer(form, d.Content)
		if err != nil {
			return decline("the answer did not fit the form: " + err.Error())
		}
		return &sdk.ElicitResult{Action: string(wire.ElicitAccept), Content: values}, nil
	case wire.ElicitCancel:
		return &sdk.ElicitResult{Action: string(wire.ElicitCancel)}, nil
	}
	return &sdk.ElicitResult{Action: string(wire.ElicitDecline)}, nil
}

// Defaults is the answer made of the form's default values (SEP-1034):
// every field with a default, as the schema gives it; missing names the
// required fields without one (the answer is then not to be sent).
func Defaults(e wire.Elicitation) (content json.RawMessage, missing []string) {
	values := map[string]json.RawMessage{}
	for _, f := range e.Fields {
		switch {
		case len(f.Default) > 0:
			values[f.Name] = f.Default
		case f.Required:
			missing = append(missing, f.Name)
		}
	}
	content, _ = json.Marshal(values)
	return content, missing
}

// clock is a call's timeout, which does not run while the user answers
// the server's forms: the time a person takes is not the server's.
type clock struct {
	mu      sync.Mutex
	timer   *time.Timer
	left    time.Duration
	since   time.Time
	pausers int
}

// startClock calls expire after d, less the time paused.
func startClock(d time.Duration, expire func()) *clock {
	return &clock{timer: time.AfterFunc(d, expire), left: d, since: time.Now()}
}

// pause stops the clock until as many resumes (pauses may overlap).
func (c *clock) pause() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pausers++; c.pausers == 1 && c.timer.Stop() {
		c.left -= time.Since(c.since)
	}
}

// resume runs the clock again for the time it had left.
func (c *clock) resume() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pausers--; c.pausers == 0 {
		c.since = time.Now()
		c.timer.Reset(max(c.left, 0))
	}
}
