package netproxy

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// target is where a request goes: a canonical host (lower-case ASCII
// name, or an address without brackets) and a port in 1-65535.
type target struct {
	host    string
	port    int
	connect bool
}

// String is host:port as people write it ([::1]:443 for IPv6).
func (t target) String() string { return net.JoinHostPort(t.host, strconv.Itoa(t.port)) }

// parseTarget reads where req goes: CONNECT host:port, or an absolute
// http URL. Anything else is an error whose text is the sentence a 400
// carries.
func parseTarget(req *http.Request) (target, error) {
	if req.Method == http.MethodConnect {
		return parseAuthority(req.RequestURI)
	}
	u := req.URL
	switch {
	case u == nil || !u.IsAbs() || u.Host == "":
		return target{}, sentencef("This is the sandbox's network proxy: it takes proxy requests only, an absolute URL (GET http://host/path) or CONNECT host:port, not %s %s. Set HTTP_PROXY and HTTPS_PROXY to reach a host through it.", req.Method, clip(req.RequestURI))
	case u.Scheme == "https":
		return target{}, sentence("The sandbox's network proxy takes https only through CONNECT host:443 (what clients do with HTTPS_PROXY set), not as GET https://...")
	case u.Scheme != "http":
		return target{}, sentencef("The sandbox's network proxy forwards http URLs only, not %s: URLs; other protocols go through CONNECT host:port.", clip(u.Scheme))
	}
	host, err := canonHost(u.Hostname())
	if err != nil {
		return target{}, err
	}
	port := 80
	if p := u.Port(); p != "" {
		if port, err = parsePort(p); err != nil {
			return target{}, err
		}
	}
	return target{host: host, port: port}, nil
}

// parseAuthority reads CONNECT's host:port; the port is required.
func parseAuthority(a string) (target, error) {
	h, p, err := net.SplitHostPort(a)
	if err != nil {
		return target{}, sentencef("The sandbox's network proxy could not read CONNECT's target %q: write it as host:port, such as example.com:443 or [2001:db8::1]:443.", clip(a))
	}
	host, err := canonHost(h)
	if err != nil {
		return target{}, err
	}
	port, err := parsePort(p)
	if err != nil {
		return target{}, err
	}
	return target{host: host, port: port, connect: true}, nil
}

func parsePort(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || p[0] == '+' || p[0] == '-' {
		return 0, sentencef("The sandbox's network proxy refused the port %q: a port is a number from 1 to 65535.", clip(p))
	}
	return n, nil
}

// canonHost returns host as Decide sees it: an IP address in its usual
// form (an IPv4 address mapped into IPv6 as IPv4), or a lower-case ASCII
// name without a trailing dot (an internationalised name in its xn--
// form). Anything else, such as a zone, userinfo, a percent sign, a space
// or an IPv4 address in a shorthand only some resolvers read (127.1,
// 0x7f000001), is an error.
func canonHost(h string) (string, error) {
	bad := func(why string) (string, error) {
		return "", sentencef("The sandbox's network proxy refused the host %q: %s.", clip(h), why)
	}
	if h == "" {
		return bad("it is empty")
	}
	if strings.Contains(h, ":") || strings.HasPrefix(h, "[") {
		a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
		switch {
		case err != nil:
			return bad("it is not a valid IPv6 address")
		case a.Zone() != "":
			return bad("an address with a zone (%eth0) cannot be reached through the proxy")
		}
		return a.Unmap().String(), nil
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String(), nil
	}
	name := strings.TrimSuffix(h, ".")
	if !ascii(name) {
		n, err := idna.Lookup.ToASCII(name)
		if err != nil {
			return bad("it is not a valid internationalised domain name")
		}
		name = n
	}
	name = strings.ToLower(name)
	if len(name) > 253 {
		return bad("it is longer than 253 characters")
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return bad("a part between dots is empty or longer than 63 characters")
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return bad("a host name holds only letters, digits, '-', '_' and dots")
			}
		}
	}
	if numeric(labels[len(labels)-1]) {
		return bad("it looks like an IPv4 address in a shorthand; write the address as four decimal numbers, such as 127.0.0.1")
	}
	return name, nil
}

// numeric reports whether a label is a number (decimal, or 0x hex), which
// makes the name an IPv4 address to many resolvers.
func numeric(l string) bool {
	if h, ok := strings.CutPrefix(l, "0x"); ok {
		l = h
		for i := 0; i < len(l); i++ {
			if c := l[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// sentence is an error whose text is a full sentence for the client and
// the model.
type sentence string

func (s sentence) Error() string { return string(s) }

func sentencef(format string, a ...any) error { return sentence(fmt.Sprintf(format, a...)) }

// clip shortens hostile input quoted in a sentence.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
