package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"pilot/backend/hostaddr"
)

// failure is why a target was not opened: the status the client gets
// (403 refused, 502 unreachable) and the sentence.
type failure struct {
	status   int
	sentence string
}

// open judges t and connects to it, in the package's order: the private
// name check and Decide before any lookup, then the lookup, the check of
// every address, and a dial of those checked addresses only.
func (s *session) open(t target) (net.Conn, *failure) {
	p := s.p
	private := func() bool { return p.Private != nil && p.Private(t.host) }
	if hostaddr.PrivateName(t.host) && !private() {
		return nil, s.refuse(t, privateSentence(t, t.host))
	}
	decide := p.Decide
	if decide == nil {
		decide = func(context.Context, string, int) error {
			return sentence("The sandbox's network proxy has no policy, so it refuses every host.")
		}
	}
	if err := decide(s.ctx, t.host, t.port); err != nil {
		return nil, s.refuse(t, err.Error())
	}
	timeout := p.DialTimeout
	if timeout <= 0 {
		timeout = DefaultDialTimeout
	}
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	addrs, err := s.lookup(ctx, t.host)
	if err != nil {
		return nil, &failure{http.StatusBadGateway, fmt.Sprintf("The sandbox's network proxy could not find the address of %s: %s.", t.host, why(err))}
	}
	for _, a := range addrs {
		if hostaddr.Blocked(a) && !private() {
			return nil, s.refuse(t, privateSentence(t, a.String()))
		}
	}
	var d net.Dialer
	var last error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(t.port)).String())
		if err == nil {
			if !s.adopt(c) {
				return nil, &failure{http.StatusBadGateway, "The sandbox's network proxy stopped: the command or the session ended."}
			}
			return c, nil
		}
		last = err
	}
	return nil, &failure{http.StatusBadGateway, fmt.Sprintf("The sandbox's network proxy could not connect to %s: %s.", t, why(last))}
}

// lookup returns host's addresses: the address itself for a literal.
func (s *session) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	r := s.p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, errors.New("no address was found")
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	return addrs, nil
}

// refuse tells OnRefuse and returns the 403.
func (s *session) refuse(t target, sentence string) *failure {
	if s.p.OnRefuse != nil {
		s.p.OnRefuse(t.host, t.port, sentence)
	}
	return &failure{http.StatusForbidden, sentence}
}

// privateSentence says why a private address was refused; addr is the
// host itself or the address it resolved to.
func privateSentence(t target, addr string) string {
	what := addr
	if addr != t.host {
		what = t.host + " resolves to " + addr + ", which"
	}
	return fmt.Sprintf("The sandbox's network proxy refused %s: %s is a private, loopback or link-local address or one of this machine's own, which commands reach only when a rule names the host exactly (allow network %s).", t, what, t.host)
}

// why is the useful end of a network error: "connection refused", "no
// such host", "i/o timeout".
func why(err error) string {
	var dns *net.DNSError
	var sys *os.SyscallError
	switch {
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "no such host"
		}
		return dns.Err
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return "it did not answer in time"
	case errors.Is(err, context.Canceled):
		return "the command or the session ended"
	case errors.As(err, &sys):
		return sys.Err.Error()
	}
	return strings.TrimSuffix(err.Error(), ".")
}
