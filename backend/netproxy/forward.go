package netproxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
)

// hopByHop are the headers of one connection, never forwarded (RFC 9110,
// 7.6.1), with Proxy-Authorization: credentials meant for a proxy, which
// this one takes none of, never reach a server.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// forward passes a plain HTTP request to its host and the answer back,
// both bodies streamed. It reports whether the client connection can
// carry another request. The upstream connection serves this request
// only.
func (s *session) forward(req *http.Request, t target) bool {
	up, fail := s.open(t)
	if fail != nil {
		s.fail(fail)
		s.linger()
		return false
	}
	defer s.release(up)
	if strings.EqualFold(req.Header.Get("Expect"), "100-continue") {
		// The host is open: the client may send its body now. The host
		// is not asked again, so it does not hold the body back for 1 s.
		req.Header.Del("Expect")
		if _, err := io.WriteString(s.client, "HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
			return false
		}
	}
	out := outgoing(req, t)
	body := &watchedBody{ReadCloser: req.Body}
	if req.Body == nil || req.Body == http.NoBody {
		body.done.Store(true)
	} else {
		out.Body = body
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		out.Write(up) // an error shows as the response's, or as the body not read to its end
	}()
	keep := s.relay(bufio.NewReaderSize(up, MaxHeaderBytes), out, req, t)
	s.release(up) // a write still under way ends now
	if !keep || !body.done.Load() {
		// The client's body was not read to its end (the host answered
		// early, or failed): the connection cannot carry another request.
		s.client.Close()
		<-wrote
		return false
	}
	<-wrote
	return true
}

// outgoing is req as the proxy sends it on: origin-form, the canonical
// Host, no hop-by-hop headers, and Connection: close.
func outgoing(req *http.Request, t target) *http.Request {
	h := req.Header.Clone()
	stripHop(h)
	if _, ok := h["User-Agent"]; !ok {
		h["User-Agent"] = []string{""} // send none, rather than Go's
	}
	host := t.String()
	if t.port == 80 {
		host = strings.TrimSuffix(host, ":80")
	}
	return &http.Request{
		Method:           req.Method,
		URL:              &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery, ForceQuery: req.URL.ForceQuery},
		Proto:            "HTTP/1.1",
		ProtoMajor:       1,
		ProtoMinor:       1,
		Header:           h,
		ContentLength:    req.ContentLength,
		TransferEncoding: req.TransferEncoding,
		Trailer:          req.Trailer,
		Host:             host,
		Close:            true,
	}
}

// relay reads the host's answer and writes it to the client: interim 1xx
// answers as they come, then the final one, its body streamed. It reports
// whether the client connection can carry another request.
func (s *session) relay(ubr *bufio.Reader, out, req *http.Request, t target) bool {
	for {
		hop, err := connectionTokens(ubr)
		var resp *http.Response
		if err == nil {
			resp, err = http.ReadResponse(ubr, out)
		}
		if err != nil {
			s.fail(&failure{http.StatusBadGateway, fmt.Sprintf("The sandbox's network proxy got no valid answer from %s: %s.", t, why(err))})
			return false
		}
		switch {
		case resp.StatusCode == http.StatusSwitchingProtocols:
			resp.Body.Close()
			s.fail(&failure{http.StatusBadGateway, fmt.Sprintf("The sandbox's network proxy cannot pass on %s's switch to another protocol over plain HTTP: use CONNECT %s (set HTTPS_PROXY, or the client's tunnelling option).", t, t)})
			return false
		case resp.StatusCode < 200:
			for _, k := range hop {
				resp.Header.Del(k)
			}
			if !s.interim(resp) {
				return false
			}
			continue
		}
		for _, k := range hop {
			resp.Header.Del(k)
		}
		return s.final(resp, req)
	}
}

// interim passes on a 1xx answer (103 Early Hints, ...).
func (s *session) interim(resp *http.Response) bool {
	stripHop(resp.Header)
	w := bufio.NewWriter(s.client)
	fmt.Fprintf(w, "HTTP/1.1 %03d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	resp.Header.Write(w)
	w.WriteString("\r\n")
	return w.Flush() == nil
}

// final passes on the final answer, its body streamed; a body of unknown
// length is chunked for a client that keeps its connection.
func (s *session) final(resp *http.Response, req *http.Request) bool {
	defer resp.Body.Close()
	keep := req.ProtoAtLeast(1, 1) && !req.Close
	stripHop(resp.Header)
	resp.Proto, resp.ProtoMajor, resp.ProtoMinor = "HTTP/1.1", 1, 1
	resp.Close = !keep
	bodied := req.Method != http.MethodHead && resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusNotModified
	if keep && bodied && resp.ContentLength < 0 && !slices.Contains(resp.TransferEncoding, "chunked") {
		resp.TransferEncoding = []string{"chunked"}
	}
	w := bufio.NewWriterSize(s.client, 32<<10)
	resp.Body = flushBody{ReadCloser: resp.Body, w: w}
	if resp.Write(onlyWriter{w}) != nil || w.Flush() != nil {
		return false
	}
	return keep
}

// connectionTokens reads ahead, without consuming it, the header of the
// answer br holds and returns the names its Connection headers list:
// http.ReadResponse drops a Connection header that says close, and with it
// the names of the other hop-by-hop headers. The header must fit in br's
// buffer.
func connectionTokens(br *bufio.Reader) ([]string, error) {
	var head []byte
	for {
		b, err := br.Peek(max(len(head)+1, br.Buffered()))
		if end := headerEnd(b); end >= 0 {
			head = b[:end]
			break
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return nil, fmt.Errorf("the header of its answer is longer than %d KiB", br.Size()>>10)
		case err != nil:
			return nil, err
		}
		head = b
	}
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(head)))
	if _, err := tp.ReadLine(); err != nil {
		return nil, nil // ReadResponse says what is wrong
	}
	h, _ := tp.ReadMIMEHeader()
	var names []string
	for _, v := range h.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				names = append(names, name)
			}
		}
	}
	return names, nil
}

// headerEnd is the length of the header b starts with, blank line
// included, or -1 when b does not hold all of it.
func headerEnd(b []byte) int {
	crlf, lf := bytes.Index(b, []byte("\r\n\r\n")), bytes.Index(b, []byte("\n\n"))
	switch {
	case lf >= 0 && (crlf < 0 || lf < crlf):
		return lf + 2
	case crlf >= 0:
		return crlf + 4
	}
	return -1
}

// stripHop removes the hop-by-hop headers, those Connection names too.
func stripHop(h http.Header) {
	for _, v := range h.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, k := range hopByHop {
		h.Del(k)
	}
}

// watchedBody records that the client's body was read to its end.
type watchedBody struct {
	io.ReadCloser
	done atomic.Bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.done.Store(true)
	}
	return n, err
}

// flushBody sends what is buffered before it waits for more of the body,
// so a slow stream reaches the client as it comes.
type flushBody struct {
	io.ReadCloser
	w *bufio.Writer
}

func (b flushBody) Read(p []byte) (int, error) {
	if err := b.w.Flush(); err != nil {
		return 0, err
	}
	return b.ReadCloser.Read(p)
}

// onlyWriter hides bufio.Writer's ReadFrom, which flushBody must not
// flush from inside.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }
