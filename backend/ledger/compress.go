package ledger

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// flateWriters are reused: a flate.Writer allocates about 1 MB.
var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

func compress(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/3 + 64)
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decompress inflates an object's payload; a full object must come out at
// its recorded size.
func decompress(payload []byte, h header) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(payload))
	defer r.Close()
	var buf bytes.Buffer
	if h.kind == kindFull && h.size < 1<<31 {
		buf.Grow(int(h.size))
	}
	limit := h.size + 1
	if h.kind == kindDelta {
		limit = 2*h.size + 1<<20 // operations are never much longer than the content
	}
	if _, err := io.Copy(&buf, io.LimitReader(r, limit)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if h.kind == kindFull && int64(buf.Len()) != h.size {
		return nil, ErrCorrupt
	}
	return buf.Bytes(), nil
}
