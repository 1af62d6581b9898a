package netproxy

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// scriptConn is a client connection that sends a fixed input, then ends,
// and keeps what the proxy writes.
type scriptConn struct {
	in  io.Reader
	out bytes.Buffer
}

func (c *scriptConn) Read(p []byte) (int, error)       { return c.in.Read(p) }
func (c *scriptConn) Write(p []byte) (int, error)      { return c.out.Write(p) }
func (c *scriptConn) Close() error                     { return nil }
func (c *scriptConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *scriptConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *scriptConn) SetDeadline(time.Time) error      { return nil }
func (c *scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptConn) SetWriteDeadline(time.Time) error { return nil }

// Hostile requests: whatever the bytes, the proxy answers with a valid
// HTTP answer of its own (400, 403 or 431) or nothing, Decide only ever
// sees a canonical host and a port in range, and nothing is looked up
// (every host is refused).
func FuzzServeConn(f *testing.F) {
	for _, s := range []string{
		"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"GET http://a.test/ HTTP/1.1\r\n\r\nGET http://b.test:8080/x HTTP/1.1\r\n\r\n",
		"CONNECT example.com:443 HTTP/1.1\r\n\r\n",
		"CONNECT [::1]:443 HTTP/1.1\r\n\r\n",
		"CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n",
		"CONNECT user:pw@example.com:443 HTTP/1.1\r\n\r\n",
		"CONNECT example.com:99999 HTTP/1.1\r\n\r\n",
		"CONNECT :443 HTTP/1.1\r\n\r\n",
		"GET http://user:pw@example.com@evil.com/ HTTP/1.1\r\n\r\n",
		"GET http://%65vil.com/ HTTP/1.1\r\n\r\n",
		"GET http://%C3%A9vil.com/ HTTP/1.1\r\n\r\n",
		"GET http://[::ffff:127.0.0.1]:80/ HTTP/1.1\r\n\r\n",
		"GET http://127.1/ HTTP/1.1\r\n\r\n",
		"GET http://0x7f.0.0.1/ HTTP/1.1\r\n\r\n",
		"GET http://xn--bcher-kva.de./ HTTP/1.1\r\n\r\n",
		"GET http://EXAMPLE.com:0080/ HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"GET http://example.com/ HTTP/1.1\r\nX: " + strings.Repeat("a", 1000) + "\r\n\r\n", // over 64 KiB: TestBadRequests (minimizing such an input takes the fuzzer minutes)
		"POST http://example.com/ HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"\r\n\r\n", "GET\r\n", "GET http://a b/ HTTP/1.1\r\n\r\n", "CONNECT [::1 HTTP/1.1\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		pol := &policy{}
		dns := newDNS(nil)
		p := pol.proxy(dns)
		c := &scriptConn{in: bytes.NewReader(in)}
		p.ServeConn(context.Background(), c)
		for _, hp := range pol.askedHosts() {
			host, port, err := net.SplitHostPort(hp)
			if err != nil {
				t.Fatalf("Decide saw %q", hp)
			}
			if canon, err := canonHost(host); err != nil || canon != host {
				t.Errorf("Decide saw the host %q, which is not canonical (%q, %v)", host, canon, err)
			}
			if n, err := parsePort(port); err != nil || n < 1 {
				t.Errorf("Decide saw the port %q", port)
			}
		}
		if n := dns.lookups.Load(); n != 0 {
			t.Errorf("%d lookups for refused hosts", n)
		}
		br := bufio.NewReader(&c.out)
		for {
			if _, err := br.Peek(1); err == io.EOF {
				break
			}
			all := c.out.String()
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("the proxy wrote something that is not an HTTP answer: %v: %q", err, all)
			}
			body, _ := io.ReadAll(resp.Body)
			switch resp.StatusCode {
			case 400, 431:
				if resp.Header.Get(HeaderError) == "" || len(body) == 0 {
					t.Errorf("a %d without its sentence", resp.StatusCode)
				}
			case 403:
				if resp.Header.Get(HeaderRefused) == "" || len(body) == 0 {
					t.Errorf("a 403 without its sentence")
				}
			default:
				t.Errorf("status %d for a refused or bad request", resp.StatusCode)
			}
		}
	})
}

// canonHost is idempotent and lets through nothing but what a host name
// or an IP address holds.
func FuzzCanonHost(f *testing.F) {
	for _, s := range []string{"example.com", "EXAMPLE.com.", "bücher.de", "[::1]", "::ffff:10.0.0.1", "fe80::1%eth0",
		"a@b", "a%2eb", "127.1", "0x7f000001", "1.2.3.4", "a..b", "-a.b", "xn--", strings.Repeat("a", 64) + ".com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		c, err := canonHost(h)
		if err != nil {
			return
		}
		if again, err := canonHost(c); err != nil || again != c {
			t.Fatalf("canonHost(%q) = %q, but canonHost(%q) = %q, %v", h, c, c, again, err)
		}
		if strings.Trim(c, "abcdefghijklmnopqrstuvwxyz0123456789-_.:") != "" || c == "" {
			t.Fatalf("canonHost(%q) = %q", h, c)
		}
	})
}
