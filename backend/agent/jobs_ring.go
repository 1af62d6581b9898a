package agent

import "fmt"

// JobOutputCap is how much of a background job's output Pilot keeps: the
// last JobOutputCap bytes; what came before is dropped and counted.
const JobOutputCap = 1 << 20

// ring keeps the last max bytes written to it, in a fixed buffer once
// full, and counts every byte ever written, so that a reader holding an
// offset into the whole output knows what it missed.
type ring struct {
	max   int
	buf   []byte // len(buf) <= max; once full, start is the oldest byte
	start int
	total int64 // bytes ever written
}

func newRing(max int) *ring { return &ring{max: max} }

func (r *ring) write(p []byte) {
	r.total += int64(len(p))
	if len(p) >= r.max {
		r.buf = append(r.buf[:0], p[len(p)-r.max:]...)
		r.start = 0
		return
	}
	if room := r.max - len(r.buf); room > 0 {
		k := min(room, len(p))
		r.buf = append(r.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: write over the oldest bytes
		n := copy(r.buf[r.start:], p)
		p = p[n:]
		r.start = (r.start + n) % r.max
	}
}

// first is the offset of the oldest byte held.
func (r *ring) first() int64 { return r.total - int64(len(r.buf)) }

// since returns the bytes held from offset off on, the offset they start
// at (later than off when bytes from off on were dropped), and how many
// bytes were dropped between off and it.
func (r *ring) since(off int64) (text []byte, start, dropped int64) {
	first := r.first()
	off = min(max(off, 0), r.total)
	if off < first {
		dropped, off = first-off, first
	}
	i := int(off - first)
	out := make([]byte, 0, len(r.buf)-i)
	tail, head := r.buf[r.start:], r.buf[:r.start] // the oldest part, then the newest
	if i < len(tail) {
		out = append(out, tail[i:]...)
		out = append(out, head...)
	} else {
		out = append(out, head[i-len(tail):]...)
	}
	return out, off, dropped
}

// droppedMark is the line that marks where output was cut.
func droppedMark(n int64) string {
	return fmt.Sprintf("[… %d bytes dropped …]\n", n)
}
