package agent

import (
	"bytes"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"pilot/backend/wire"
)

// DefaultBatchInterval is how long text deltas and command output are
// gathered before they are emitted as one event.
const DefaultBatchInterval = 33 * time.Millisecond

// outbox numbers and delivers a manager's events. Deltas (streamed text,
// command output) are coalesced per session and flushed every interval;
// every other event is emitted at once, in order, after the session's
// pending deltas, and never dropped. All emission happens under one lock,
// so sequence numbers reach the emitter in order.
type outbox struct {
	emit     wire.Emitter
	interval time.Duration

	mu      sync.Mutex
	seq     map[int64]int64
	pending map[int64]*deltas
	order   []int64 // sessions with pending deltas, first come first
	timer   *time.Timer
	sent    map[int64]*inflight // what the frontend was sent of unfinished work
	// tails are the bytes of a character a job's output cut in two, held
	// until the rest comes (or the session's next agent:job event: a job
	// ended), so no event carries half a UTF-8 character (JSON would make
	// it U+FFFD).
	tails map[int64][]jobChunk
}

// inflight is the text of the message being streamed and the output of
// running commands, as sent so far: the store saves them debounced or at
// the end, so a snapshot takes them from here (see Manager.Snapshot).
type inflight struct {
	messageID      int64
	text, thinking strings.Builder
	output         map[string]*strings.Builder
}

func (o *outbox) inflight(session int64) *inflight {
	f := o.sent[session]
	if f == nil {
		f = &inflight{output: map[string]*strings.Builder{}}
		o.sent[session] = f
	}
	return f
}

// settle forgets in-flight work that a committed event now carries whole;
// o.mu is held.
func (o *outbox) settle(session int64, payload any) {
	f := o.sent[session]
	if f == nil {
		return
	}
	switch p := payload.(type) {
	case wire.MessagePayload:
		if p.Message.ID == f.messageID {
			f.messageID = 0
			f.text.Reset()
			f.thinking.Reset()
		}
	case wire.ToolPayload:
		if p.Call.Status != "running" && p.Call.Status != "awaiting_approval" {
			delete(f.output, p.Call.ID)
		}
	}
}

// deltas is what a session gathered since the last flush.
type deltas struct {
	messageID int64
	text      []byte
	thinking  []byte
	output    []outputChunk
	jobs      []jobChunk
}

// jobChunk is a background job's output gathered since the last flush:
// at most maxJobChunk bytes, the newest (offset moves past the dropped).
type jobChunk struct {
	jobID  string
	offset int64
	chunk  []byte
	// whole: send it as it is, even ending inside a character (a held
	// tail sent at a terminal event).
	whole bool
}

// maxJobChunk caps a job's output in one flush: a job that floods its
// output sends the window at most this much per interval (the window
// fetches what it missed by offset, from what the job holds).
const maxJobChunk = 64 << 10

type outputChunk struct {
	toolCallID string
	chunk      []byte
}

func newOutbox(e wire.Emitter, interval time.Duration) *outbox {
	if interval <= 0 {
		interval = DefaultBatchInterval
	}
	return &outbox{emit: e, interval: interval, seq: map[int64]int64{}, pending: map[int64]*deltas{}, sent: map[int64]*inflight{}}
}

// next returns the session's next sequence number; o.mu is held.
func (o *outbox) next(session int64) wire.Seq {
	o.seq[session]++
	return wire.Seq{SessionID: session, Seq: o.seq[session]}
}

// gather returns the session's pending deltas, creating them; o.mu is held.
func (o *outbox) gather(session int64) *deltas {
	d := o.pending[session]
	if d == nil {
		d = &deltas{}
		o.pending[session] = d
		o.order = append(o.order, session)
	}
	if o.timer == nil {
		o.timer = time.AfterFunc(o.interval, o.tick)
	}
	return d
}

// text adds streamed text or thinking of message messageID.
func (o *outbox) text(session, messageID int64, text, thinking string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	d := o.gather(session)
	if d.messageID != 0 && d.messageID != messageID {
		o.flushSession(session)
		d = o.gather(session)
	}
	d.messageID = messageID
	d.text = append(d.text, text...)
	d.thinking = append(d.thinking, thinking...)
}

// output adds live output of a running command.
func (o *outbox) output(session int64, toolCallID, chunk string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	d := o.gather(session)
	if n := len(d.output); n > 0 && d.output[n-1].toolCallID == toolCallID {
		d.output[n-1].chunk = append(d.output[n-1].chunk, chunk...)
		return
	}
	d.output = append(d.output, outputChunk{toolCallID: toolCallID, chunk: []byte(chunk)})
}

// jobOutput adds output of a background job, offset its position in the
// job's whole output.
func (o *outbox) jobOutput(session int64, jobID string, offset int64, chunk []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.addJobOutput(session, jobID, offset, chunk)
}

// addJobOutput is jobOutput with o.mu held; it returns the chunk it went
// to.
func (o *outbox) addJobOutput(session int64, jobID string, offset int64, chunk []byte) *jobChunk {
	d := o.gather(session)
	if t := o.takeTail(session, jobID); t != nil && t.offset+int64(len(t.chunk)) == offset {
		offset, chunk = t.offset, append(t.chunk, chunk...)
	}
	var c *jobChunk
	for i := range d.jobs {
		if d.jobs[i].jobID == jobID && d.jobs[i].offset+int64(len(d.jobs[i].chunk)) == offset {
			c = &d.jobs[i]
			break
		}
	}
	if c == nil {
		d.jobs = append(d.jobs, jobChunk{jobID: jobID, offset: offset})
		c = &d.jobs[len(d.jobs)-1]
	}
	c.chunk = append(c.chunk, chunk...)
	c.whole = false
	if over := len(c.chunk) - maxJobChunk; over > 0 {
		c.chunk = append(c.chunk[:0], c.chunk[over:]...)
		c.offset += int64(over)
	}
	return c
}

// takeTail removes and returns the held tail of a job's output; o.mu is
// held.
func (o *outbox) takeTail(session int64, jobID string) *jobChunk {
	ts := o.tails[session]
	for i := range ts {
		if ts[i].jobID == jobID {
			t := ts[i]
			if o.tails[session] = append(ts[:i], ts[i+1:]...); len(o.tails[session]) == 0 {
				delete(o.tails, session)
			}
			return &t
		}
	}
	return nil
}

// holdTail keeps the cut character at the end of a job's chunk for the
// next flush and returns what can be sent now; o.mu is held.
func (o *outbox) holdTail(session int64, c jobChunk) jobChunk {
	// A chunk that starts inside a character (its start was dropped)
	// starts at the next one: the window sees the gap and reads the job.
	for i := 0; i < utf8.UTFMax-1 && len(c.chunk) > 0 && !utf8.RuneStart(c.chunk[0]); i++ {
		c.chunk, c.offset = c.chunk[1:], c.offset+1
	}
	if c.whole {
		return c
	}
	n := cutRune(c.chunk)
	if n == 0 {
		return c
	}
	if o.tails == nil {
		o.tails = map[int64][]jobChunk{}
	}
	keep := len(c.chunk) - n
	o.tails[session] = append(o.tails[session], jobChunk{jobID: c.jobID, offset: c.offset + int64(keep), chunk: bytes.Clone(c.chunk[keep:])})
	c.chunk = c.chunk[:keep]
	return c
}

// cutRune is how many bytes at the end of b begin a character that is
// not complete yet (0: none).
func cutRune(b []byte) int {
	for n := 1; n < utf8.UTFMax && n <= len(b); n++ {
		if utf8.RuneStart(b[len(b)-n]) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// send emits a terminal event after the session's pending deltas. build
// receives the event's sequence number.
func (o *outbox) send(session int64, name string, build func(wire.Seq) any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushSession(session)
	if ts := o.tails[session]; name == wire.AgentJob && len(ts) > 0 { // a job's end: nothing more comes to complete them
		delete(o.tails, session)
		for _, t := range ts {
			o.addJobOutput(session, t.jobID, t.offset, t.chunk).whole = true
		}
		o.flushSession(session)
	}
	payload := build(o.next(session))
	o.settle(session, payload)
	o.emit.Emit(name, payload)
}

// snapshot runs read while none of the session's events can be emitted,
// after its pending deltas went out, and returns the last sequence number
// sent with the in-flight work.
func (o *outbox) snapshot(session int64, read func() error) (Live, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushSession(session)
	if err := read(); err != nil {
		return Live{}, err
	}
	lv := Live{Seq: o.seq[session]}
	if f := o.sent[session]; f != nil {
		lv.MessageID, lv.Text, lv.Thinking = f.messageID, f.text.String(), f.thinking.String()
		for id, b := range f.output {
			if lv.Output == nil {
				lv.Output = map[string]string{}
			}
			lv.Output[id] = b.String()
		}
	}
	return lv, nil
}

// global emits an event that belongs to no session's sequence.
func (o *outbox) global(name string, payload any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.emit.Emit(name, payload)
}

// flush emits every pending delta now.
func (o *outbox) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for len(o.order) > 0 {
		o.flushSession(o.order[0])
	}
}

func (o *outbox) tick() {
	o.mu.Lock()
	o.timer = nil
	o.mu.Unlock()
	o.flush()
}

// flushSession emits one session's pending deltas; o.mu is held.
func (o *outbox) flushSession(session int64) {
	d := o.pending[session]
	if d == nil {
		return
	}
	delete(o.pending, session)
	for i, s := range o.order {
		if s == session {
			o.order = append(o.order[:i], o.order[i+1:]...)
			break
		}
	}
	f := o.inflight(session)
	if len(d.text) > 0 || len(d.thinking) > 0 {
		if f.messageID != d.messageID {
			f.messageID = d.messageID
			f.text.Reset()
			f.thinking.Reset()
		}
		f.text.Write(d.text)
		f.thinking.Write(d.thinking)
		o.emit.Emit(wire.AgentStream, wire.StreamPayload{Seq: o.next(session), MessageID: d.messageID, Text: string(d.text), Thinking: string(d.thinking)})
	}
	for _, c := range d.output {
		b := f.output[c.toolCallID]
		if b == nil {
			b = &strings.Builder{}
			f.output[c.toolCallID] = b
		}
		b.Write(c.chunk)
		o.emit.Emit(wire.AgentToolOutput, wire.ToolOutputPayload{Seq: o.next(session), ToolCallID: c.toolCallID, Chunk: string(c.chunk)})
	}
	for _, c := range d.jobs {
		if c = o.holdTail(session, c); len(c.chunk) == 0 {
			continue
		}
		o.emit.Emit(wire.AgentJobOutput, wire.JobOutputPayload{Seq: o.next(session), JobID: c.jobID, Offset: c.offset, Chunk: string(c.chunk)})
	}
}
