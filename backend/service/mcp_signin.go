package service

import (
	"context"
	"errors"
	"sync"

	"pilot/backend/wire"
)

// SignIn starts the sign-in of the open project's server name (the
// window's "Sign in"): the browser opens on the server's authorization
// page and the answer comes back to a one-time address on this machine
// (mcpauth.Login). It returns once the page's address is known; the
// flow goes on in the background, and when it ends the server restarts
// with its new sign-in (MCPUpdated), or keeps the error saying why. A
// sign-in of the same server still waiting is abandoned for this one.
func (m *MCP) SignIn(name string) (wire.MCPSignInStarted, error) {
	h, dir, err := m.hub()
	if err != nil {
		return wire.MCPSignInStarted{}, err
	}
	l, err := m.mcp.SignIn(dir, name)
	if err != nil {
		return wire.MCPSignInStarted{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	key := dir + "\x00" + name
	mine := m.signIns.start(key, cancel)
	shown := make(chan string, 1)
	l.Show = func(u string) { shown <- u }
	l.Open = func(u string) {
		if err := m.Browse(u); err != nil {
			m.log.Warn("mcp sign-in: the browser did not open", "server", name, "err", err)
		}
	}
	ended := make(chan error, 1)
	go func() {
		defer m.signIns.done(key, mine)
		_, err := l.Run(ctx)
		end := &wire.MCPSignInEnded{Server: name}
		switch {
		case ctx.Err() != nil: // abandoned (Cancel, or for another sign-in)
			end.Cancelled = true
		case err != nil:
			m.log.Warn("mcp sign-in failed", "server", name, "err", err)
			h.SignInFailed(name, err)
			end.Error = err.Error()
		default:
			h.Restart(name)
		}
		ended <- err
		m.publish(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: dir, SignIn: end})
	}()
	select {
	case u := <-shown:
		return wire.MCPSignInStarted{Server: name, Address: u}, nil
	case err := <-ended:
		if err == nil {
			err = errors.New("the sign-in ended before it began; try again")
		}
		return wire.MCPSignInStarted{}, err
	}
}

// SignOut forgets the sign-in of the open project's server name and
// restarts it, so it says it needs one.
func (m *MCP) SignOut(name string) error {
	h, dir, err := m.hub()
	if err != nil {
		return err
	}
	if _, err := m.mcp.SignOut(dir, name); err != nil {
		return err
	}
	h.Restart(name)
	return nil
}

// CancelSignIn abandons the sign-in of the open project's server name
// still waiting for the browser; the server stays as it was.
func (m *MCP) CancelSignIn(name string) error {
	_, dir, err := m.hub()
	if err != nil {
		return err
	}
	m.signIns.cancel(dir + "\x00" + name) // its flow says it ended
	return nil
}

// signIns are the sign-ins under way in the window, one per project
// folder and server.
type signIns struct {
	mu sync.Mutex
	m  map[string]*context.CancelFunc
}

// start records cancel as key's sign-in, abandoning the one before.
func (p *signIns) start(key string, cancel context.CancelFunc) *context.CancelFunc {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old := p.m[key]; old != nil {
		(*old)()
	}
	if p.m == nil {
		p.m = map[string]*context.CancelFunc{}
	}
	p.m[key] = &cancel
	return &cancel
}

// cancel abandons key's sign-in, if one waits.
func (p *signIns) cancel(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.m[key]; c != nil {
		(*c)()
	}
}

// done ends key's sign-in mine, and forgets it unless another replaced it.
func (p *signIns) done(key string, mine *context.CancelFunc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	(*mine)()
	if p.m[key] == mine {
		delete(p.m, key)
	}
}
