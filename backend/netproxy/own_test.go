package netproxy

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// ownAddrs are this machine's interface addresses that are not loopback
// (on this machine eth0's 192.0.2.2, which no address class refuses).
func ownAddrs(t *testing.T) []netip.Addr {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	var out []netip.Addr
	for _, x := range addrs {
		if n, ok := x.(*net.IPNet); ok {
			if a, ok := netip.AddrFromSlice(n.IP); ok && !a.Unmap().IsLoopback() && !a.IsLinkLocalUnicast() {
				out = append(out, a.Unmap())
			}
		}
	}
	if len(out) == 0 {
		t.Skip("this machine has no address but loopback and link-local ones")
	}
	return out
}

// A service bound to every address (0.0.0.0) answers on the machine's own
// addresses as on loopback: those are refused like loopback, named as a
// literal or by a name resolving to one, unless Private names the host.
func TestOwnAddressesRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.Host)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	p := port(t, ln.Addr().String())
	for _, a := range ownAddrs(t) {
		for _, c := range []struct {
			host    string
			private bool
			status  int
			says    string
		}{
			{a.String(), false, 403, "one of this machine's own"},
			{"own.test", false, 403, "own.test resolves to " + a.String()},
			{a.String(), true, 200, "hello from"},
			{"own.test", true, 200, "hello from own.test"},
		} {
			t.Run(fmt.Sprintf("%s/%s/%v", a, c.host, c.private), func(t *testing.T) {
				t.Parallel()
				dns := newDNS(map[string]string{"own.test": a.String()})
				pol := &policy{allow: map[string]bool{"*": true}, private: map[string]bool{c.host: c.private}}
				addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
				target := net.JoinHostPort(c.host, p)
				resp, body := roundTrip(t, addr, fmt.Sprintf("GET http://%s/ HTTP/1.1\r\nHost: %s\r\n\r\n", target, target))
				if resp.StatusCode != c.status || !strings.Contains(body, c.says) {
					t.Errorf("%d %q, want %d and %q", resp.StatusCode, body, c.status, c.says)
				}
			})
		}
	}
}
