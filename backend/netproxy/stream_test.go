package netproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
)

const mib = 1 << 20

// Bodies stream both ways: the server sends the second MiB of its answer
// only once the client has read the first, and reads the second MiB of
// the request only once the client... is told the first arrived. A proxy
// that kept a whole body before passing it on would stall both.
func TestBodiesStream(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second) // a bound for a broken proxy, not a wait
	defer cancel()
	clientGotFirst := make(chan struct{})
	serverGotFirst := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down":
			w.Header().Set("Content-Length", fmt.Sprint(2*mib))
			w.Write(make([]byte, mib))
			w.(http.Flusher).Flush()
			select {
			case <-clientGotFirst:
			case <-ctx.Done():
				return
			}
			w.Write(make([]byte, mib))
		case "/up":
			if _, err := io.ReadFull(r.Body, make([]byte, mib)); err != nil {
				return
			}
			close(serverGotFirst)
			n, _ := io.Copy(io.Discard, r.Body)
			fmt.Fprintf(w, "%d", n+mib)
		}
	}))
	t.Cleanup(srv.Close)
	dns := newDNS(map[string]string{"allowed.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"allowed.test": true}, private: map[string]bool{"allowed.test": true}}
	addr, _ := serveProxy(t, context.Background(), pol.proxy(dns))
	proxyURL, _ := url.Parse("http://" + addr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
	t.Cleanup(client.CloseIdleConnections)
	base := "http://allowed.test:" + port(t, srv.URL)

	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/down", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, mib)); err != nil {
		t.Fatalf("the first MiB did not come through before the rest was sent: %v", err)
	}
	close(clientGotFirst)
	if n, err := io.Copy(io.Discard, resp.Body); err != nil || n != mib {
		t.Fatalf("the second MiB: %d, %v", n, err)
	}
	resp.Body.Close()

	pr, pw := io.Pipe()
	go func() {
		pw.Write(make([]byte, mib))
		select {
		case <-serverGotFirst:
			pw.Write(make([]byte, 3*mib))
			pw.Close()
		case <-ctx.Done():
			pw.CloseWithError(errors.New("the server never got the first MiB of the request"))
		}
	}()
	req, _ = http.NewRequestWithContext(ctx, "POST", base+"/up", pr) // chunked: no length
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != fmt.Sprint(4*mib) {
		t.Errorf("the server read %s bytes, want %d", body, 4*mib)
	}
}

// A server that answers without a length (closing its connection at the
// end) is passed on chunked, so the client's connection is kept; a HEAD
// and a 304 come back without a body, and the connection still carries
// the next request.
func TestFraming(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				switch r.URL.Path {
				case "/304":
					io.WriteString(c, "HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n")
				case "/early-hints":
					io.WriteString(c, "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				default:
					io.WriteString(c, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
				}
			}()
		}
	}()
	p := port(t, ln.Addr().String())
	dns := newDNS(map[string]string{"old.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"old.test": true}, private: map[string]bool{"old.test": true}}
	addr, accepted := serveProxy(t, context.Background(), pol.proxy(dns))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	get := func(method, path string) (*http.Response, string) {
		fmt.Fprintf(c, "%s http://old.test:%s%s HTTP/1.1\r\nHost: old.test\r\n\r\n", method, p, path)
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, body := get("GET", "/"); body != "until the end" || resp.TransferEncoding[0] != "chunked" || resp.Close {
		t.Errorf("GET without a length: %q, %v, close %v", body, resp.TransferEncoding, resp.Close)
	}
	if resp, body := get("HEAD", "/"); body != "" || resp.StatusCode != 200 {
		t.Errorf("HEAD: %d %q", resp.StatusCode, body)
	}
	if resp, body := get("GET", "/304"); body != "" || resp.StatusCode != 304 {
		t.Errorf("304: %d %q", resp.StatusCode, body)
	}
	// The 103 is passed on before the 200 on the same connection.
	fmt.Fprintf(c, "GET http://old.test:%s/early-hints HTTP/1.1\r\nHost: old.test\r\n\r\n", p)
	line, _ := br.ReadString('\n')
	if line != "HTTP/1.1 103 Early Hints\r\n" {
		t.Errorf("first line %q", line)
	}
	for line != "\r\n" {
		line, _ = br.ReadString('\n')
	}
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Errorf("after the 103: %v", err)
	}
	if accepted.Load() != 1 {
		t.Errorf("%d connections to the proxy, want 1 kept", accepted.Load())
	}
}

// When the context ends (the command ended, the session closed), a tunnel
// and a forward in progress close at once, ServeConn returns, and no
// goroutine of the proxy is left. Not parallel: it counts goroutines.
func TestContextEndClosesEverything(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // a server that says nothing until the proxy closes
				io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	p := port(t, ln.Addr().String())
	before := runtime.NumGoroutine()

	dns := newDNS(map[string]string{"slow.test": "127.0.0.1"})
	pol := &policy{allow: map[string]bool{"slow.test": true}, private: map[string]bool{"slow.test": true}}
	proxy := pol.proxy(dns)
	ctx, cancel := context.WithCancel(context.Background())
	var clients []net.Conn
	done := make(chan struct{}, 2)
	for _, req := range []string{
		"CONNECT slow.test:" + p + " HTTP/1.1\r\n\r\n",
		"POST http://slow.test:" + p + "/ HTTP/1.1\r\nHost: slow.test\r\nContent-Length: 1000000\r\n\r\npartial body",
	} {
		client, server := net.Pipe()
		clients = append(clients, client)
		go func() {
			proxy.ServeConn(ctx, server)
			done <- struct{}{}
		}()
		go io.WriteString(client, req)
	}
	br := bufio.NewReader(clients[0])
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, " 200 ") {
		t.Fatalf("CONNECT: %q %v", line, err)
	}
	cancel()
	for range 2 {
		select {
		case <-done:
		case <-time.After(30 * time.Second): // a bound for a broken proxy, not a wait
			t.Fatal("ServeConn did not return after its context ended")
		}
	}
	for i, c := range clients {
		if _, err := c.Read(make([]byte, 1)); err == nil {
			t.Errorf("connection %d is still open after the context ended", i)
		}
		c.Close()
	}
	// Wait for the count to come back: goroutines end a little after the
	// connections they served close.
	for start := time.Now(); runtime.NumGoroutine() > before; runtime.Gosched() {
		if time.Since(start) > 30*time.Second {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
	}
}
