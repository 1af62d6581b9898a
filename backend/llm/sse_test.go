package llm

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll returns every event of s as "event|data|id" lines.
func readAll(t testing.TB, r io.Reader) ([]string, error) {
	t.Helper()
	sr := NewSSEReader(r)
	var out []string
	for {
		ev, err := sr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev.Event+"|"+string(ev.Data)+"|"+ev.ID)
	}
}

func TestSSEReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"lf", "event: a\ndata: 1\n\ndata: 2\n\n", []string{"a|1|", "|2|"}},
		{"crlf", "event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []string{"a|1|", "|2|"}},
		{"cr", "event: a\rdata: 1\r\rdata: 2\r\r", []string{"a|1|", "|2|"}},
		{"comments", ": keep-alive\n\n:x\ndata: 1\n\n", []string{"|1|"}},
		{"multi-line data", "data: a\ndata:b\ndata:  c\n\n", []string{"|a\nb\n c|"}},
		{"no trailing newline", "data: {\"x\":1}", []string{`|{"x":1}|`}},
		{"no trailing blank line", "data: 1\n", []string{"|1|"}},
		{"empty data field", "data\n\n", []string{"||"}},
		{"event without data is not dispatched", "event: ping\n\ndata: 1\n\n", []string{"|1|"}},
		{"id persists", "id: 7\ndata: 1\n\ndata: 2\n\n", []string{"|1|7", "|2|7"}},
		{"unknown fields ignored", "foo: bar\nretry: 100\ndata: 1\n\n", []string{"|1|"}},
		{"bom", "\xef\xbb\xbfdata: 1\n\n", []string{"|1|"}},
		{"colon in value", "data: a: b\n\n", []string{"|a: b|"}},
		{"blank lines only", "\n\n\r\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// One byte at a time exercises every buffer boundary, CR+LF split included.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(t, r)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderHugeLine(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 5<<20)
	got, err := readAll(t, strings.NewReader("data: "+big+"\r\n\r\ndata: after\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "|"+big+"|" || got[1] != "|after|" {
		t.Errorf("got %d events", len(got))
	}
}

func TestSSEReaderLimit(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"data: " + strings.Repeat("x", 2000) + "\n\n",
		strings.Repeat("data: "+strings.Repeat("x", 100)+"\n", 20) + "\n",
	} {
		r := NewSSEReader(strings.NewReader(in))
		r.limit = 1000
		if _, err := r.Next(); !errors.Is(err, ErrSSELineTooLong) {
			t.Errorf("err = %v, want ErrSSELineTooLong", err)
		}
	}
}

func TestSSEReaderReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: 1\n\ndata: 2"), iotest.ErrReader(boom))
	got, err := readAll(t, r)
	if !errors.Is(err, boom) || len(got) != 1 {
		t.Errorf("got %q, %v", got, err)
	}
}

// referenceSSE is a direct, slow transcription of the standard's parsing
// rules (plus dispatch at EOF), for the fuzzer to compare against.
func referenceSSE(in []byte) []string {
	in = bytes.TrimPrefix(in, []byte("\xef\xbb\xbf"))
	s := strings.ReplaceAll(string(in), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	var data []string
	event, id, has := "", "", false
	flush := func() {
		if has {
			out = append(out, event+"|"+strings.Join(data, "\n")+"|"+id)
		}
		data, event, has = nil, "", false
	}
	for _, line := range lines {
		if line == "" {
			flush()
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "data":
			data = append(data, value)
			has = true
		case "event":
			event = value
		case "id":
			if !strings.ContainsRune(value, 0) {
				id = value
			}
		}
	}
	flush()
	return out
}

func FuzzSSEReader(f *testing.F) {
	for _, name := range fixtureNames(f) {
		f.Add(readFixture(f, name))
	}
	f.Add([]byte("data: a\r\rdata: b\r\n\r\n"))
	f.Add([]byte("\xef\xbb\xbfevent: x\ndata\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		want := referenceSSE(in)
		for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in))} {
			got, err := readAll(t, r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("got %q\nwant %q", got, want)
			}
		}
	})
}
