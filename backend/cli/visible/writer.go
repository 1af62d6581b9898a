package visible

import (
	"io"
	"sync"
)

// Writer writes what it is given to another writer as Block would show
// it, the text cut anywhere between writes: a character whose form
// depends on what follows waits for it, or for Flush. It is safe for
// concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte // the end of the text so far, waiting for what follows
	st   state
	out  []byte
}

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, st: start}
}

// Write makes p visible and writes it on; it reports len(p) when the
// writer under it took everything.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.write(p, false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what waits for more text, as the end of the text.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.write(nil, true)
}

func (w *Writer) write(p []byte, final bool) error {
	text := string(append(w.held, p...))
	var n int
	w.out, n, w.st = render(w.out[:0], text, w.st, false, final)
	w.held = append(w.held[:0], text[n:]...)
	if len(w.out) == 0 {
		return nil
	}
	_, err := w.w.Write(w.out)
	return err
}
