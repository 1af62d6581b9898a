package netproxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// hello is a server on loopback that says hello and which host it served.
func hello(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s %s", r.Host, r.URL.Path)
	}))
	n := countConns(srv.Config)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, n
}

// A kept connection carries several requests, each judged by its own host:
// a request to another host on the same connection is judged again.
func TestKeepAliveJudgesEachRequest(t *testing.T) {
	t.Parallel()
	srv, _ := hello(t)
	p := port(t, srv.URL)
	dns := newDNS(map[string]string{"allowed.test": "127.0.0.1", "refused.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"allowed.test": true}, private: map[string]bool{"allowed.test": true, "refused.test": true}}
	addr, accepted := serveProxy(t, context.Background(), pol.proxy(dns))

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := newReader(c)
	for _, path := range []string{"/one", "/two"} {
		fmt.Fprintf(c, "GET http://allowed.test:%s%s HTTP/1.1\r\nHost: allowed.test:%s\r\n\r\n", p, path, p)
		resp, body := readAnswer(t, br)
		if resp.StatusCode != 200 || body != "hello from allowed.test:"+p+" "+path {
			t.Fatalf("%s: %d %q", path, resp.StatusCode, body)
		}
	}
	fmt.Fprintf(c, "GET http://refused.test:%s/three HTTP/1.1\r\nHost: allowed.test\r\n\r\n", p)
	resp, body := readAnswer(t, br)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "did not allow commands to reach refused.test") {
		t.Fatalf("refused.test on the kept connection: %d %q", resp.StatusCode, body)
	}
	want := []string{"allowed.test:" + p, "allowed.test:" + p, "refused.test:" + p}
	if got := pol.askedHosts(); !slices.Equal(got, want) {
		t.Errorf("Decide saw %v, want %v", got, want)
	}
	if accepted.Load() != 1 {
		t.Errorf("the client opened %d connections, want 1", accepted.Load())
	}
}

// A refused host is answered 403 with the sentence in the body and in a
// header, told to OnRefuse, and never looked up nor dialled: the decision
// comes before DNS. (Moving the lookup in open before Decide makes this
// test fail on the lookup count.)
func TestRefusedBeforeLookupAndDial(t *testing.T) {
	t.Parallel()
	srv, conns := hello(t)
	p := port(t, srv.URL)
	for _, req := range []string{
		"GET http://refused.test:%s/ HTTP/1.1\r\nHost: refused.test\r\n\r\n",
		"CONNECT refused.test:%s HTTP/1.1\r\nHost: refused.test:443\r\n\r\n",
	} {
		dns := newDNS(map[string]string{"refused.test": "127.0.0.1"})
		pol := &policy{private: map[string]bool{"refused.test": true}}
		addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
		resp, body := roundTrip(t, addr, fmt.Sprintf(req, p))
		sentence := "The user did not allow commands to reach refused.test."
		if resp.StatusCode != http.StatusForbidden || body != sentence+"\n" || resp.Header.Get(HeaderRefused) != sentence {
			t.Errorf("%q: %d %q, header %q", req, resp.StatusCode, body, resp.Header.Get(HeaderRefused))
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		if got, want := pol.refusals(), []string{"refused.test:" + p + ": " + sentence}; !slices.Equal(got, want) {
			t.Errorf("OnRefuse got %q, want %q", got, want)
		}
		if n := dns.lookups.Load(); n != 0 {
			t.Errorf("%q: %d DNS lookups for a refused host, want none", req, n)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("the server got %d connections from refused requests", n)
	}
}

// A private, loopback or link-local address is refused unless Private
// names the host: a literal before Decide is even asked, a name after its
// lookup.
func TestPrivateAddresses(t *testing.T) {
	t.Parallel()
	srv, _ := hello(t)
	p := port(t, srv.URL)
	cases := []struct {
		name, host string
		private    bool
		status     int
		decided    bool
		says       string
	}{
		{"a name resolving to loopback", "intranet.test", false, 403, true, "intranet.test resolves to 127.0.0.1, which is a private"},
		{"the same, named by a rule", "intranet.test", true, 200, true, "hello from intranet.test"},
		{"a loopback literal", "127.0.0.1", false, 403, false, "127.0.0.1 is a private, loopback or link-local address"},
		{"a loopback literal named by a rule", "127.0.0.1", true, 200, true, "hello from 127.0.0.1"},
		{"IPv4 mapped into IPv6", "[::ffff:127.0.0.1]", false, 403, false, "127.0.0.1 is a private"},
		{"localhost", "localhost", false, 403, false, "(allow network localhost)"},
		{"the metadata address", "169.254.169.254", false, 403, false, "169.254.169.254 is a private"},
		{"a name resolving to a mix", "mixed.test", false, 403, true, "mixed.test resolves to 10.0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dns := newDNS(map[string]string{"intranet.test": "127.0.0.1", "mixed.test": "10.0.0.1"})
			dns.names["mixed.test"] = append(dns.names["mixed.test"], netipMust("8.8.8.8"))
			host := strings.Trim(strings.TrimPrefix(c.host, "[::ffff:"), "]")
			pol := &policy{allow: map[string]bool{"*": true}, private: map[string]bool{host: c.private}}
			addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
			resp, body := roundTrip(t, addr, fmt.Sprintf("GET http://%s:%s/ HTTP/1.1\r\nHost: x\r\n\r\n", c.host, p))
			if resp.StatusCode != c.status || !strings.Contains(body, c.says) {
				t.Errorf("%d %q, want %d and %q", resp.StatusCode, body, c.status, c.says)
			}
			if got := len(pol.askedHosts()) > 0; got != c.decided {
				t.Errorf("Decide asked: %v, want %v", got, c.decided)
			}
			if c.status == 403 && len(pol.refusals()) != 1 {
				t.Errorf("OnRefuse got %q", pol.refusals())
			}
		})
	}
}

// A host that cannot be found or reached is answered 502 with a sentence.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := port(t, ln.Addr().String())
	ln.Close()
	dns := newDNS(map[string]string{"down.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"*": true}, private: map[string]bool{"down.test": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
	for req, says := range map[string]string{
		"CONNECT down.test:" + closed + " HTTP/1.1\r\n\r\n":               "could not connect to down.test:" + closed + ": connection refused.",
		"GET http://nowhere.test/ HTTP/1.1\r\nHost: nowhere.test\r\n\r\n": "could not find the address of nowhere.test: no such host.",
	} {
		resp, body := roundTrip(t, addr, req)
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, says) || !strings.Contains(resp.Header.Get(HeaderError), says) {
			t.Errorf("%q: %d %q", req, resp.StatusCode, body)
		}
	}
	if r := pol.refusals(); len(r) != 0 {
		t.Errorf("OnRefuse was told of failures that are not refusals: %q", r)
	}
}

// Requests that are not proxy requests, or whose target cannot be read,
// get 400 with a sentence and are never judged; headers over 64 KiB get
// 431.
func TestBadRequests(t *testing.T) {
	t.Parallel()
	pol := &policy{allow: map[string]bool{"*": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(newDNS(nil)))
	cases := []struct {
		raw    string
		status int
		says   string
	}{
		{"GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n", 400, "takes proxy requests only"},
		{"GET https://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", 400, "only through CONNECT"},
		{"GET ftp://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", 400, "http URLs only"},
		{"CONNECT example.com HTTP/1.1\r\n\r\n", 400, "write it as host:port"},
		{"CONNECT example.com:0 HTTP/1.1\r\n\r\n", 400, "from 1 to 65535"},
		{"CONNECT example.com:65536 HTTP/1.1\r\n\r\n", 400, "from 1 to 65535"},
		{"CONNECT example.com:+443 HTTP/1.1\r\n\r\n", 400, ""},
		{"CONNECT user@example.com:443 HTTP/1.1\r\n\r\n", 400, "letters, digits"},
		{"CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n", 400, "refused the host"},
		{"CONNECT 127.1:443 HTTP/1.1\r\n\r\n", 400, "shorthand"},
		{"CONNECT 0x7f000001:443 HTTP/1.1\r\n\r\n", 400, "shorthand"},
		{"GET http://example.com:99999/ HTTP/1.1\r\nHost: x\r\n\r\n", 400, ""},
		{"GET http://exa mple.com/ HTTP/1.1\r\nHost: x\r\n\r\n", 400, ""},
		{"GARBAGE\r\n\r\n", 400, "could not read the request"},
		{"GET http://example.com/ HTTP/1.1\r\nX-Big: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", 431, "longer than 64 KiB"},
	}
	for _, c := range cases {
		resp, body := roundTrip(t, addr, c.raw)
		if resp.StatusCode != c.status || !strings.Contains(body, c.says) || resp.Header.Get(HeaderError) == "" {
			t.Errorf("%.60q: %d %q, want %d with %q", c.raw, resp.StatusCode, body, c.status, c.says)
		}
	}
	if a := pol.askedHosts(); len(a) != 0 {
		t.Errorf("Decide was asked about %v", a)
	}
}

// Decide sees the host the request really goes to, in its canonical form:
// not the userinfo before '@', not the Host header.
func TestDecideSeesTheRealHost(t *testing.T) {
	t.Parallel()
	pol := &policy{}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(newDNS(nil)))
	for _, raw := range []string{
		"GET http://allowed.test@Evil.TEST./x HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		"GET http://allowed.test:80@evil.test:8080/x HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		"GET http://%C3%A9vil.test/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		"CONNECT [2001:DB8::1]:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n",
		"CONNECT BÜCHER.test:443 HTTP/1.1\r\n\r\n",
	} {
		if resp, _ := roundTrip(t, addr, raw); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%q: %d", raw, resp.StatusCode)
		}
	}
	want := []string{"evil.test:80", "evil.test:8080", "xn--vil-9la.test:80", "[2001:db8::1]:443", "xn--bcher-kva.test:443"}
	if got := pol.askedHosts(); !slices.Equal(got, want) {
		t.Errorf("Decide saw %q, want %q", got, want)
	}
}

// The forwarded request carries no hop-by-hop header and no proxy
// credentials, its Host is the judged host, and the answer's hop-by-hop
// headers stay behind too.
func TestForwardedHeaders(t *testing.T) {
	t.Parallel()
	// A server of its own, as Go's would replace the Connection header.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		var seen []string
		for _, k := range []string{"Proxy-Authorization", "Proxy-Connection", "X-Secret-Hop", "Keep-Alive", "Te", "Upgrade", "User-Agent"} {
			if v := r.Header.Get(k); v != "" {
				seen = append(seen, k+"="+v)
			}
		}
		body := fmt.Sprintf("host=%s uri=%s close=%v seen=%v", r.Host, r.RequestURI, r.Close, seen)
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nConnection: close, X-Server-Hop\r\nX-Server-Hop: 1\r\nKeep-Alive: timeout=5\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}()
	p := port(t, ln.Addr().String())
	dns := newDNS(map[string]string{"allowed.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"allowed.test": true}, private: map[string]bool{"allowed.test": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
	resp, body := roundTrip(t, addr, "GET http://u:pw@ALLOWED.test:"+p+"/a%2Fb?q=1 HTTP/1.1\r\nHost: other.test\r\n"+
		"Proxy-Authorization: Basic c2VjcmV0\r\nProxy-Connection: keep-alive\r\nConnection: X-Secret-Hop\r\nX-Secret-Hop: 1\r\n"+
		"Keep-Alive: 300\r\nTe: trailers\r\nUpgrade: websocket\r\n\r\n")
	if want := "host=allowed.test:" + p + " uri=/a%2Fb?q=1 close=true seen=[]"; resp.StatusCode != 200 || body != want {
		t.Errorf("%d %q, want %q", resp.StatusCode, body, want)
	}
	for _, k := range []string{"X-Server-Hop", "Keep-Alive"} {
		if v := resp.Header.Get(k); v != "" {
			t.Errorf("the answer carried %s: %s", k, v)
		}
	}
}

// The proxy does not follow a redirect: the client gets the 3xx, and the
// host it points to is neither judged nor reached.
func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.RedirectHandler("http://elsewhere.test/landing", http.StatusFound))
	t.Cleanup(srv.Close)
	dns := newDNS(map[string]string{"allowed.test": "127.0.0.1", "elsewhere.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"*": true}, private: map[string]bool{"allowed.test": true, "elsewhere.test": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
	resp, _ := roundTrip(t, addr, "GET http://allowed.test:"+port(t, srv.URL)+"/ HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://elsewhere.test/landing" {
		t.Errorf("%d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := pol.askedHosts(); len(got) != 1 {
		t.Errorf("Decide saw %v", got)
	}
}

// CONNECT tunnels any TCP, and passes each side's end on as a half-close:
// the server reads the client's bytes to their end, then answers.
func TestTunnelHalfClose(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c) // to the client's half-close
		fmt.Fprintf(c, "read %d bytes", len(b))
	}()
	dns := newDNS(map[string]string{"raw.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"raw.test": true}, private: map[string]bool{"raw.test": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The CONNECT and the first bytes of the tunnel in one write, as a
	// client that does not wait for the 200 sends them.
	payload := strings.Repeat("x", 100000)
	fmt.Fprintf(c, "CONNECT raw.test:%s HTTP/1.1\r\n\r\n%s", port(t, ln.Addr().String()), payload[:10])
	go func() {
		io.WriteString(c, payload[10:])
		c.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "HTTP/1.1 200 Connection established\r\n\r\nread 100000 bytes"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
