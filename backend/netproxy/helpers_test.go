package netproxy

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// fakeDNS answers A and AAAA queries from a table, over the custom Dial of
// a Go resolver, and counts every lookup that reached it.
type fakeDNS struct {
	names   map[string][]netip.Addr // "allowed.test" -> addresses
	lookups atomic.Int64
}

func newDNS(names map[string]string) *fakeDNS {
	d := &fakeDNS{names: map[string][]netip.Addr{}}
	for n, a := range names {
		d.names[n] = append(d.names[n], netip.MustParseAddr(a))
	}
	return d
}

// resolver is a Go resolver whose only name server is d.
func (d *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		d.lookups.Add(1)
		client, server := net.Pipe()
		go d.serve(server)
		return client, nil
	}}
}

// serve answers queries framed as over TCP (a net.Pipe is not a
// PacketConn) until the resolver closes the connection.
func (d *fakeDNS) serve(c net.Conn) {
	defer c.Close()
	for {
		var n uint16
		if binary.Read(c, binary.BigEndian, &n) != nil {
			return
		}
		q := make([]byte, n)
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		var m dnsmessage.Message
		if m.Unpack(q) != nil || len(m.Questions) != 1 {
			return
		}
		question := m.Questions[0]
		m.Response, m.Authoritative, m.RecursionAvailable = true, true, true
		name := strings.TrimSuffix(strings.ToLower(question.Name.String()), ".")
		addrs, ok := d.names[name]
		if !ok {
			m.RCode = dnsmessage.RCodeNameError
		}
		for _, a := range addrs {
			h := dnsmessage.ResourceHeader{Name: question.Name, Class: dnsmessage.ClassINET, TTL: 60}
			switch {
			case a.Is4() && question.Type == dnsmessage.TypeA:
				h.Type = dnsmessage.TypeA
				m.Answers = append(m.Answers, dnsmessage.Resource{Header: h, Body: &dnsmessage.AResource{A: a.As4()}})
			case a.Is6() && question.Type == dnsmessage.TypeAAAA:
				h.Type = dnsmessage.TypeAAAA
				m.Answers = append(m.Answers, dnsmessage.Resource{Header: h, Body: &dnsmessage.AAAAResource{AAAA: a.As16()}})
			}
		}
		out, err := m.Pack()
		if err != nil {
			return
		}
		if binary.Write(c, binary.BigEndian, uint16(len(out))) != nil {
			return
		}
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

// policy is a Decide that lets the hosts of allow through and records
// every host it was asked about, and an OnRefuse that records refusals.
type policy struct {
	allow   map[string]bool
	private map[string]bool
	mu      sync.Mutex
	asked   []string // host:port, in order
	refused []string // host:port: sentence
}

func (p *policy) decide(_ context.Context, host string, port int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, net.JoinHostPort(host, strconv.Itoa(port)))
	if p.allow[host] || p.allow["*"] {
		return nil
	}
	return fmt.Errorf("The user did not allow commands to reach %s.", host)
}

func (p *policy) onRefuse(host string, port int, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refused = append(p.refused, net.JoinHostPort(host, strconv.Itoa(port))+": "+why)
}

func (p *policy) askedHosts() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

func (p *policy) refusals() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.refused...)
}

// proxy is a Proxy wired to pol and dns.
func (pol *policy) proxy(dns *fakeDNS) *Proxy {
	return &Proxy{
		Decide:   pol.decide,
		Private:  func(h string) bool { return pol.private[h] },
		Resolver: dns.resolver(),
		OnRefuse: pol.onRefuse,
	}
}

// serveProxy listens on loopback and serves each connection with p, as
// the pod's bridge would hand them over. It returns the address and the
// number of connections accepted; the cleanup cancels the context and
// waits for every ServeConn to return.
func serveProxy(t testing.TB, ctx context.Context, p *Proxy) (string, *atomic.Int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var accepted atomic.Int64
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			wg.Go(func() { p.ServeConn(ctx, c) })
		}
	})
	t.Cleanup(func() {
		cancel()
		ln.Close()
		wg.Wait()
	})
	return ln.Addr().String(), &accepted
}

// countConns counts the connections a test server accepts.
func countConns(srv *http.Server) *atomic.Int64 {
	var n atomic.Int64
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	return &n
}

// roundTrip writes raw to a new connection to the proxy and reads one
// answer (for HEAD-less requests).
func roundTrip(t *testing.T, proxy, raw string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", proxy)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second)) // a bound for a broken proxy, not a wait
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", raw, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// port is the port of a test server's address.
func port(t testing.TB, addr string) string {
	t.Helper()
	_, p, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(addr, "http://"), "https://"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

// readAnswer reads one answer and its whole body from a kept connection.
func readAnswer(t *testing.T, br *bufio.Reader) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func netipMust(s string) netip.Addr { return netip.MustParseAddr(s) }
