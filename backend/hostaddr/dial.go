package hostaddr

import (
	"context"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// DialFunc is an http.Transport's DialContext.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dialer dials as net.Dialer does (10 s, resolver: nil for the default)
// but refuses, unless allowed(host) says a rule names the host, a host
// named as a private address (PrivateName) and any address Blocked that
// the name resolves to: the check is on the address dialled, after the
// lookup, so a name that resolves to one is refused too. refused words
// the refusal of host at addr (host itself when named so).
func Dialer(allowed func(host string) bool, resolver *net.Resolver, refused func(host, addr string) error) DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		open := allowed != nil && allowed(host)
		if PrivateName(host) && !open {
			return nil, refused(host, host)
		}
		d := &net.Dialer{Timeout: 10 * time.Second, Resolver: resolver, Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			if Blocked(ap.Addr()) && !open {
				return refused(host, ap.Addr().String())
			}
			return nil
		}}
		return d.DialContext(ctx, network, addr)
	}
}
