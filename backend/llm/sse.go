package llm

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
)

// SSEEvent is one server-sent event.
type SSEEvent struct {
	Event string // the "event:" field; empty means "message"
	Data  []byte // the "data:" lines joined by '\n'; valid until the next Next call
	ID    string // the last "id:" field seen
	Retry int    // the "retry:" field in milliseconds, 0 when absent
	// Unterminated is set on an event the stream ended in before its blank
	// line; its data may be cut short.
	Unterminated bool
}

// ErrSSELineTooLong is returned by SSEReader.Next when one line or one event
// exceeds the reader's limit.
var ErrSSELineTooLong = errors.New("llm: server-sent event larger than the limit")

// DefaultSSELimit is the largest event an SSEReader accepts (64 MiB).
const DefaultSSELimit = 64 << 20

// SSEReader reads server-sent events as specified by the WHATWG HTML
// standard: lines end with CRLF, LF or CR; lines starting with ':' are
// comments; a field without a colon has an empty value; one leading space of
// a value is dropped; several data lines are joined with '\n'; a blank line
// dispatches the event and events without data are not dispatched. Unlike
// the standard, an event that is still pending when the stream ends without
// a final blank line is dispatched, because some servers end that way.
type SSEReader struct {
	r         *bufio.Reader
	limit     int
	line      []byte
	data      []byte
	id        string
	pendingCR bool // the last line ended with CR; skip a following LF
	started   bool // the byte-order mark check was done
}

// NewSSEReader returns a reader of the events in r with DefaultSSELimit.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 64<<10), limit: DefaultSSELimit}
}

// Next returns the next event. It returns io.EOF at the end of the stream,
// ErrSSELineTooLong for oversized input, or the reader's error.
func (s *SSEReader) Next() (SSEEvent, error) {
	var ev SSEEvent
	s.data = s.data[:0]
	hasData := false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && hasData {
				ev.Unterminated = true
				return s.dispatch(ev), nil
			}
			return SSEEvent{}, err
		}
		if len(line) == 0 {
			if hasData {
				return s.dispatch(ev), nil
			}
			ev = SSEEvent{}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if len(s.data)+len(value)+1 > s.limit {
				return SSEEvent{}, ErrSSELineTooLong
			}
			s.data = append(s.data, value...)
			s.data = append(s.data, '\n')
			hasData = true
		case "event":
			ev.Event = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				s.id = string(value)
			}
		case "retry":
			if n, err := strconv.Atoi(string(value)); err == nil && n >= 0 {
				ev.Retry = n
			}
		}
	}
}

func (s *SSEReader) dispatch(ev SSEEvent) SSEEvent {
	ev.Data = s.data[:len(s.data)-1]
	ev.ID = s.id
	return ev
}

// readLine returns the next line without its end. The slice is valid until
// the next call.
func (s *SSEReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	if !s.started {
		s.started = true
		if b, err := s.r.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
			_, _ = s.r.Discard(3)
		}
	}
	if s.pendingCR {
		s.pendingCR = false
		if b, err := s.r.Peek(1); err == nil && b[0] == '\n' {
			_, _ = s.r.Discard(1)
		}
	}
	for {
		if s.r.Buffered() == 0 {
			if _, err := s.r.Peek(1); err != nil {
				if err == io.EOF && len(s.line) > 0 {
					return s.line, nil
				}
				return nil, err
			}
		}
		win, _ := s.r.Peek(s.r.Buffered())
		end := bytes.IndexByte(win, '\n')
		scan := win
		if end >= 0 {
			scan = win[:end]
		}
		if cr := bytes.IndexByte(scan, '\r'); cr >= 0 {
			end = cr
		}
		if end < 0 {
			if len(s.line)+len(win) > s.limit {
				return nil, ErrSSELineTooLong
			}
			s.line = append(s.line, win...)
			_, _ = s.r.Discard(len(win))
			continue
		}
		if len(s.line)+end > s.limit {
			return nil, ErrSSELineTooLong
		}
		s.line = append(s.line, win[:end]...)
		s.pendingCR = win[end] == '\r'
		_, _ = s.r.Discard(end + 1)
		return s.line, nil
	}
}
