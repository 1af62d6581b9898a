package webfetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// A page served on every address (0.0.0.0) is not fetched from one of
// this machine's own addresses (on this machine eth0's 192.0.2.2, which
// no address class refuses) unless a rule names the host exactly.
func TestOwnAddressRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "the machine's own service")
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, x := range addrs {
		n, ok := x.(*net.IPNet)
		if !ok {
			continue
		}
		a, ok := netip.AddrFromSlice(n.IP)
		if !ok || a.Unmap().IsLoopback() || a.IsLinkLocalUnicast() {
			continue
		}
		host := a.Unmap().String()
		u, err := Parse("http://" + net.JoinHostPort(host, port) + "/")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Fetch(context.Background(), u, Options{}); !errors.Is(err, ErrPrivate) {
			t.Errorf("%s: err = %v, want ErrPrivate", host, err)
		}
		if p, err := Fetch(context.Background(), u, Options{AllowPrivate: func(h string) bool { return h == host }}); err != nil || p.Markdown == "" {
			t.Errorf("%s named by a rule: %+v, %v", host, p, err)
		}
		tried++
	}
	if tried == 0 {
		t.Skip("this machine has no address but loopback and link-local ones")
	}
}
