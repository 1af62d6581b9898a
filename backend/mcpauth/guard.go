package mcpauth

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"pilot/backend/hostaddr"
)

// Client is the HTTP client of a server's sign-in and of its tokens'
// refresh: everything it fetches (metadata, registration, tokens) is the
// server's word, outside input. It opens only https URLs (and http ones
// on this machine when the server itself is a local http one), and no
// private, loopback or link-local address, nor one of this machine's own,
// unless private(host) says a network rule names the host. Redirects are
// judged the same way, each one.
func Client(server string, private func(host string) bool) *http.Client {
	allowed := func(host string) bool { return private != nil && private(strings.ToLower(host)) }
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // the check is on the address dialled
	tr.DialContext = hostaddr.Dialer(allowed, nil, privateError)
	return &http.Client{Timeout: 30 * time.Second, Transport: guarded{local: localHTTP(server), next: tr}}
}

// guarded refuses a URL whose scheme the sign-in may not use.
type guarded struct {
	local bool
	next  http.RoundTripper
}

func (g guarded) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := schemeAllowed(r.URL, g.local); err != nil {
		return nil, err
	}
	return g.next.RoundTrip(r)
}

// schemeAllowed: https always; http only on this machine, for a local
// server (local).
func schemeAllowed(u *url.URL, local bool) error {
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && local && loopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("the sign-in refused %s://%s: a server's sign-in pages must use https (plain http only on this machine, for a server on this machine); ask the server's owner to fix its OAuth metadata", u.Scheme, u.Host)
}

// localHTTP reports whether server is an http URL on this machine.
func localHTTP(server string) bool {
	u, err := url.Parse(server)
	return err == nil && u.Scheme == "http" && loopback(u.Hostname())
}

func loopback(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.IsLoopback()
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

func privateError(host, addr string) error {
	what := host
	if addr != host {
		what = host + " resolves to " + addr + ", which"
	}
	return fmt.Errorf("the sign-in refused %s: %s is a private, loopback or link-local address or one of this machine's own, which the sign-in reaches only when a rule names the host exactly (allow network %s)", host, what, host)
}
