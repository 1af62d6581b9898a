package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// The network question from inside the sandbox: a sandboxed command's
// connection reaches Pilot's proxy (backend/netproxy), whose Decide,
// Private and OnRefuse are the session's pod's (below). Decide makes the
// connection a call of kind network owned by the running command's call:
// it goes through the same pipeline as every tool call (perform: the
// gate, the question on the command's card, the ending), and its ending
// is its own, told to the proxy, not the command's.

// networkKind: one connection of a sandboxed command, judged by its host
// under the session's rules and mode; a yes holds for the session.
var networkKind = kind{question: networkQuestion, effect: allowHost}

func networkQuestion(c *call) (question, bool) {
	return question{call: gate.Call{Tool: gate.NetworkTool, Host: c.host, HostApproved: c.t.l.pod.hosts.has(c.host)},
		card: wire.Approval{Command: c.run.command, Host: c.host, Port: c.port}}, true
}

// allowHost remembers the user's yes to the host for the session.
func allowHost(c *call) (tools.Result, error) {
	if !c.grant.asked {
		return tools.Result{}, nil
	}
	c.t.l.pod.hosts.add(c.host)
	return tools.Result{}, nil
}

// network decides one connection of the running command s: nil lets it
// through; an error refuses it, its text the sentence the client and the
// model are told.
func (t *turn) network(s *sandboxRun, host string, port int) error {
	t.own.ask.Lock() // one question at a time: a second connection to the host finds the first one's yes
	defer t.own.ask.Unlock()
	c := &call{t: t, ctx: s.ctx, r: s.r, owned: true, run: s, host: host, port: port}
	c.perform(&networkKind)
	switch o := c.ended; {
	case o.status == wire.ToolDone:
		if c.grant.asked {
			c.running(context.WithoutCancel(s.ctx))
		}
		return nil
	case o.refusedBy != store.RefusedUser && o.status != wire.ToolCancelled: // refused by a rule or the mode
		s.blocked(o.text)
		return errors.New(o.text)
	}
	c.running(context.WithoutCancel(s.ctx))
	why := fmt.Sprintf("The sandbox refused the connection to %s: the user did not allow that host.", hostPort(host, port))
	if feedback := strings.TrimSpace(c.grant.feedback); feedback != "" {
		why = fmt.Sprintf("The sandbox refused the connection to %s: it was not allowed (%s).", hostPort(host, port), feedback)
	}
	if s.ctx.Err() != nil {
		why = fmt.Sprintf("The sandbox refused the connection to %s: the command ended before the user answered.", hostPort(host, port))
	}
	s.blocked(why)
	return errors.New(why)
}

// decide is the proxy's Decide: the gate judges a connection by its host
// under the session's rules and mode, asking the user on the running
// command's card where it says so.
func (p *pod) decide(_ context.Context, host string, port int) error {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	s := p.current()
	if s == nil {
		return fmt.Errorf("The sandbox refused the connection to %s: no command of this session is running to ask the user about it (a background job's connections are refused once the call that started it has returned; reach the host from a command run in the foreground).", hostPort(host, port))
	}
	defer s.asking.Done()
	return s.t.network(s, host, port)
}

// refused is the proxy's OnRefuse: every refusal (a private address no
// rule names, as well as Decide's) is told with the running command's
// result and shown on its card.
func (p *pod) refused(_ string, _ int, why string) {
	if s := p.current(); s != nil {
		s.blocked(why)
		s.asking.Done()
	}
}

// private is the proxy's Private: a private, loopback or link-local
// address, or one of the machine's own, opens only for a rule naming the
// host exactly.
func (p *pod) private(host string) bool {
	s := p.current()
	if s == nil {
		return false
	}
	defer s.asking.Done()
	return s.t.judge(s.ctx, gate.Call{Tool: gate.NetworkTool, Host: strings.ToLower(host)}).Private
}

func hostPort(host string, port int) string {
	if port == 0 {
		return host
	}
	return host + ":" + strconv.Itoa(port)
}
