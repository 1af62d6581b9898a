package netproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// tunnel answers CONNECT: 200, then bytes both ways until both sides are
// done, each direction's end passed on as a half-close.
func (s *session) tunnel(t target) {
	up, fail := s.open(t)
	if fail != nil {
		s.fail(fail)
		s.linger()
		return
	}
	defer s.release(up)
	if _, err := io.WriteString(s.client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	// Bytes the client sent after its CONNECT (a pipelined TLS hello)
	// are in the reader's buffer; the rest is copied from the connection
	// itself, which lets the kernel splice TCP to TCP.
	if n := s.br.Buffered(); n > 0 {
		b, _ := s.br.Peek(n)
		if _, err := up.Write(b); err != nil {
			return
		}
		s.br.Discard(n)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		pipe(up, s.client)
	}()
	pipe(s.client, up)
	<-done
}

// pipe copies src to dst; at src's end it half-closes dst, so the other
// side sees the end while its own direction goes on. When that cannot be
// done (an error, or a connection with no half-close), both are closed.
func pipe(dst, src net.Conn) {
	_, err := io.Copy(dst, src)
	if cw, ok := dst.(interface{ CloseWrite() error }); ok && err == nil {
		if cw.CloseWrite() == nil {
			return
		}
	}
	dst.Close()
	src.Close()
}

// fail writes a failure's answer.
func (s *session) fail(f *failure) {
	h := HeaderError
	if f.status == http.StatusForbidden {
		h = HeaderRefused
	}
	s.answer(f.status, h, f.sentence)
}

// writeAnswer writes one of the proxy's own answers: the sentence as a
// text/plain body and in header, and Connection: close.
func writeAnswer(w *bufio.Writer, status int, header, sentence string) {
	body := sentence + "\n"
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	fmt.Fprintf(w, "Content-Type: text/plain; charset=utf-8\r\nContent-Length: %s\r\nConnection: close\r\n", strconv.Itoa(len(body)))
	fmt.Fprintf(w, "%s: %s\r\n\r\n", header, headerValue(sentence))
	w.WriteString(body)
}

// headerValue makes a sentence a valid header value: control characters
// become spaces.
func headerValue(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
