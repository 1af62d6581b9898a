// Package netproxy is the filtering HTTP proxy that sandboxed commands
// reach the network through: CONNECT for HTTPS (and any TCP tunnelled that
// way) and absolute-form requests (GET http://host/path) for plain HTTP,
// several requests on one kept connection, each judged by its own host.
//
// For every request, in this order: the host and port are read and made
// canonical (lower case, IDNA, IPv6 without brackets, default ports 80 and
// 443); a host that is an address literal or localhost and private is
// refused unless Private names it; Decide judges the host, before anything
// is resolved or dialled; the name is resolved with Resolver; every address
// it resolves to must be public unless Private names the host; the proxy
// dials exactly the addresses it checked (so DNS cannot change its answer
// in between) and then tunnels (CONNECT) or forwards (the rest). The proxy
// never follows a redirect: the client gets the 3xx, and its next request
// is judged like any other.
//
// A refusal answers 403 with the sentence as a text/plain body and in the
// X-Pilot-Refused header, and is told to OnRefuse; a host that cannot be
// resolved or reached answers 502 with a sentence (X-Pilot-Error). When the
// context of ServeConn ends, the connection and any tunnel close at once.
package netproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits.
const (
	// MaxHeaderBytes caps a request's line and headers; more answers 431.
	MaxHeaderBytes = 64 << 10
	// DefaultDialTimeout bounds the lookup and the connection of one
	// request when Proxy.DialTimeout is zero.
	DefaultDialTimeout = 15 * time.Second
)

// Headers the proxy adds to its own answers, so that a client that hides
// bodies (curl without -v, a package manager) still shows the sentence.
const (
	HeaderRefused = "X-Pilot-Refused" // 403: why the host was refused
	HeaderError   = "X-Pilot-Error"   // 400, 431, 502: what went wrong
)

// Proxy serves the connections of one session's commands. Its fields are
// read, never written, by ServeConn: set them before the first connection.
type Proxy struct {
	// Decide judges a host before anything is resolved or dialled: nil
	// lets it through; an error refuses it, and its text is the sentence
	// the command's client receives and the model is told. A nil Decide
	// refuses every host.
	Decide func(ctx context.Context, host string, port int) error
	// Private reports whether host may be opened although it is (or
	// resolves to) a private, loopback or link-local address or one of
	// this machine's own: only when a rule names it exactly. nil: never.
	Private func(host string) bool
	// Resolver resolves host names (nil: net.DefaultResolver).
	Resolver *net.Resolver
	// OnRefuse, when set, is told of every refusal (a 403) before the
	// client gets it: the host and port as Decide saw them and the
	// sentence. It is called on the connection's goroutine, so it should
	// not block.
	OnRefuse func(host string, port int, why string)
	// DialTimeout bounds the lookup and the connection of one request
	// (0: DefaultDialTimeout).
	DialTimeout time.Duration
}

// ServeConn serves one client connection until it closes or ctx ends, and
// closes it. It returns once every connection it opened is closed and
// every goroutine it started has ended.
func (p *Proxy) ServeConn(ctx context.Context, c net.Conn) {
	s := &session{p: p, ctx: ctx, client: c, conns: map[net.Conn]bool{c: true}}
	s.lim = &limitReader{r: c}
	s.br = bufio.NewReader(s.lim)
	stop := context.AfterFunc(ctx, s.abort)
	defer func() {
		stop()
		s.abort()
	}()
	for s.serveOne() {
	}
}

// session is one client connection and the upstream connections it opens.
type session struct {
	p      *Proxy
	ctx    context.Context
	client net.Conn
	lim    *limitReader
	br     *bufio.Reader

	mu    sync.Mutex
	conns map[net.Conn]bool // open connections, closed by abort
	dead  bool
}

// adopt tracks an upstream connection, or closes it and reports false when
// the session already ended.
func (s *session) adopt(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead {
		c.Close()
		return false
	}
	s.conns[c] = true
	return true
}

// release closes an upstream connection and stops tracking it.
func (s *session) release(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// abort closes every connection of the session; blocked reads and writes
// return at once.
func (s *session) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dead = true
	for c := range s.conns {
		c.Close()
	}
	clear(s.conns)
}

// serveOne reads and answers one request; false ends the connection.
func (s *session) serveOne() bool {
	s.lim.n = MaxHeaderBytes + int64(s.br.Size()) // what may be read ahead of the headers, as net/http allows
	req, err := http.ReadRequest(s.br)
	hitLimit := s.lim.n <= 0
	s.lim.n = unlimited
	switch {
	case err == nil:
	case hitLimit:
		s.answer(http.StatusRequestHeaderFieldsTooLarge, HeaderError,
			"The sandbox's network proxy refused the request: its line and headers are longer than 64 KiB.")
		s.linger()
		return false
	case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || s.ctx.Err() != nil:
		return false
	default:
		s.answer(http.StatusBadRequest, HeaderError, "The sandbox's network proxy could not read the request: "+err.Error()+".")
		s.linger()
		return false
	}
	t, err := parseTarget(req)
	if err != nil {
		s.answer(http.StatusBadRequest, HeaderError, err.Error())
		s.linger()
		return false
	}
	if t.connect {
		s.tunnel(t)
		return false
	}
	return s.forward(req, t)
}

// answer writes one of the proxy's own answers, a sentence.
func (s *session) answer(status int, header, sentence string) {
	w := bufio.NewWriter(s.client)
	writeAnswer(w, status, header, sentence)
	w.Flush()
}

// linger ends the connection gently after an answer given before the
// request was read to its end: closing a socket with unread bytes (the
// body of a refused upload) resets it, and the client may lose the answer
// before reading it. So the proxy half-closes and reads on (at most
// lingerBytes, for at most lingerTime) until the client closes too. No
// other goroutine may be reading the client then.
func (s *session) linger() {
	if cw, ok := s.client.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
		s.client.SetReadDeadline(time.Now().Add(lingerTime))
		io.CopyN(io.Discard, s.br, lingerBytes)
	}
}

// How much of a refused request, and for how long, the proxy reads and
// drops while the client takes its answer and closes.
const (
	lingerBytes = 64 << 20
	lingerTime  = 2 * time.Second
)

// unlimited is the read limit outside a request's headers.
const unlimited = 1<<63 - 1

// limitReader fails once n bytes were read: the header cap.
type limitReader struct {
	r io.Reader
	n int64
}

var errTooLong = errors.New("the request headers are too long")

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errTooLong
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}
