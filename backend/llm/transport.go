package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"pilot/backend/secret"
)

// endpoint is what both clients share: the HTTP client, retries, and turning
// failures into *Error values.
type endpoint struct {
	provider string // "anthropic" or "openai"
	base     string // base URL without a trailing slash
	host     string
	key      string
	keyHint  string
	urlHint  string
	client   *http.Client
	retry    RetryPolicy
	idle     time.Duration // the longest silence accepted; <= 0: no limit
	auth     func(h http.Header)
	// explain, when set, adds to an error what the request's content
	// makes likely (imageRefusal).
	explain func(*Error)
}

// newEndpoint builds the endpoint of cfg; idle is the provider's default
// for cfg.StreamIdleTimeout.
func newEndpoint(provider, keyHint string, cfg Config, idle time.Duration, auth func(http.Header)) endpoint {
	base := strings.TrimRight(cfg.BaseURL, "/")
	host := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		host = u.Host
	}
	client := cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	if cfg.StreamIdleTimeout != 0 {
		idle = cfg.StreamIdleTimeout
	}
	return endpoint{provider: provider, base: base, host: host, key: cfg.APIKey, keyHint: keyHint, urlHint: cfg.URLHint, client: client, retry: cfg.Retry, idle: idle, auth: auth}
}

// fill completes an error with what the endpoint knows.
func (c *endpoint) fill(e *Error) *Error {
	e.Provider, e.Host, e.KeyHint, e.URLHint = c.provider, c.host, c.keyHint, c.urlHint
	e.Message = secret.Redact(e.Message, c.key)
	if c.explain != nil {
		c.explain(e)
	}
	return e
}

// send makes one request and retries retryable failures. It returns a 2xx
// response or an *Error. emit, when not nil, receives EventRetry before each
// sleep; it returns false when the consumer is gone.
func (c *endpoint) send(ctx context.Context, method, path string, body []byte, emit func(Event) bool) (*http.Response, error) {
	var resp *http.Response
	if e := c.retrying(ctx, emit, func() (*Error, bool) {
		var e *Error
		resp, e = c.once(ctx, method, path, body)
		return e, e != nil && e.Retryable()
	}); e != nil {
		return nil, e
	}
	return resp, nil
}

// retrying calls try until it succeeds, fails with again false, or the
// policy's retries are used up. It waits the server's retry-after or the
// policy's backoff between attempts, announced with EventRetry to emit
// (when not nil).
func (c *endpoint) retrying(ctx context.Context, emit func(Event) bool, try func() (e *Error, again bool)) *Error {
	maxRetries := c.retry.maxRetries()
	for attempt := 1; ; attempt++ {
		e, again := try()
		if e == nil {
			return nil
		}
		e.Attempts = attempt
		if !again || attempt > maxRetries || ctx.Err() != nil {
			return e
		}
		delay := e.RetryAfter
		if delay > c.retry.maxRetryAfter() {
			return e
		}
		if delay <= 0 {
			delay = c.retry.backoff(attempt)
		}
		info := &RetryInfo{Attempt: attempt, Delay: delay.Milliseconds(), Reason: retryReason(e)}
		if emit != nil && !emit(Event{Type: EventRetry, Retry: info}) {
			return c.cancelled(ctx.Err())
		}
		if err := c.retry.sleep(ctx, delay); err != nil {
			return c.cancelled(err)
		}
	}
}

// once makes one request. The response's body is read under the idle
// watch: a silent server fails the request with KindStalled, before the
// headers or in the middle of the body.
func (c *endpoint) once(ctx context.Context, method, path string, body []byte) (*http.Response, *Error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	w := startWatch(ctx, c.idle)
	req, err := http.NewRequestWithContext(w.ctx, method, c.base+path, rd)
	if err != nil {
		w.end()
		return nil, c.fill(&Error{Kind: KindBadRequest, Message: "invalid base URL " + c.base, Err: err})
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.auth(req.Header)
	resp, err := c.client.Do(req)
	if err != nil {
		stalled := w.stalled()
		w.end()
		switch {
		case ctx.Err() != nil:
			return nil, c.cancelled(ctx.Err())
		case stalled != nil:
			return nil, c.fill(stalled)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, c.fill(&Error{Kind: KindNetwork, Err: err})
	}
	w.pause()
	resp.Body = &watchedBody{ReadCloser: resp.Body, w: w}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	typ, msg := parseErrorBody(raw)
	kind := kindForStatus(resp.StatusCode)
	if k, ok := kindForType(typ); ok && resp.StatusCode < 500 && k != KindBadRequest {
		kind = k
	}
	if (kind == KindBadRequest || kind == KindTooLarge) && looksLikeContextTooLong(msg) {
		kind = KindContextTooLong
	}
	e := &Error{
		Kind:       kind,
		Status:     resp.StatusCode,
		Type:       typ,
		Message:    msg,
		RetryAfter: retryAfter(resp.Header, c.retry.now()),
		RequestID:  RequestID(resp.Header),
	}
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &env) == nil && errorCode(env.Error) == codeToolUseFailed && kind == KindBadRequest {
		e.Type, e.retryOnce = codeToolUseFailed, true // as in a stream: see chunkError
	}
	return nil, c.fill(e)
}

func (c *endpoint) cancelled(cause error) *Error {
	if cause == nil {
		cause = context.Canceled
	}
	return c.fill(&Error{Kind: KindCancelled, Err: cause})
}

// parseErrorBody reads the error type and message from Anthropic's
// {"type":"error","error":{"type","message"}}, OpenAI's
// {"error":{"message","type","code"}}, Ollama's {"error":"..."}, or plain text.
func parseErrorBody(raw []byte) (typ, msg string) {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &env) != nil {
		text := strings.TrimSpace(string(raw))
		if strings.HasPrefix(text, "<") {
			return "", "" // an HTML error page says nothing useful
		}
		return "", truncate(text, 300)
	}
	var s string
	if json.Unmarshal(env.Error, &s) == nil {
		return "", truncate(s, 1000)
	}
	var obj struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	_ = json.Unmarshal(env.Error, &obj)
	var code string
	_ = json.Unmarshal(obj.Code, &code)
	typ = obj.Type
	if _, known := kindForType(code); known {
		typ = code
	}
	if obj.Message == "" {
		obj.Message = env.Message
	}
	return typ, truncate(obj.Message, 1000)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// streamParser turns a response body into events; it returns nil after
// emitting EventStop, or the error that ended the answer.
type streamParser func(body io.Reader, emit func(Event) bool) error

// stream posts body to path and runs parse over the answer in a goroutine.
// The channel closes after EventStop or EventError; when ctx is cancelled
// the body is closed at once and the channel closes soon after. A stream
// that fails before any part of the answer was emitted is retried as the
// same failure before the stream would be: one that goes silent or breaks
// off like a failed connection, an error the provider reports in it (Anthropic's
// `event: error`, an OpenAI error chunk) like the HTTP status of its type.
// After that, its error has Partial set and is not retried.
func (c *endpoint) stream(ctx context.Context, path string, body []byte, parse streamParser) <-chan Event {
	ch := make(chan Event, 64)
	go func() {
		defer close(ch)
		partial, text := false, false
		once := false // the one retry of a retryOnce error was used
		again := func(e *Error) bool {
			if e.retryOnce && !once {
				once = true
				return true
			}
			return e.Retryable()
		}
		emit := func(ev Event) bool {
			if ev.Type <= EventToolDone {
				partial = true
			}
			if ev.Type == EventTextDelta && ev.Text != "" {
				text = true
			}
			select {
			case ch <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		e := c.retrying(ctx, emit, func() (*Error, bool) {
			resp, e := c.once(ctx, http.MethodPost, path, body)
			if e != nil {
				return e, again(e)
			}
			err := c.read(ctx, resp, parse, emit)
			switch {
			case err == nil:
				return nil, false
			case ctx.Err() != nil:
				return c.cancelled(ctx.Err()), false
			}
			e = c.asError(err)
			e.Partial, e.PartialText = partial, text
			if e.RequestID == "" {
				e.RequestID = RequestID(resp.Header)
			}
			if e.Retryable() && e.Kind != KindStalled {
				// the provider reported it: the answer's retry-after, if
				// it sent one, is as good as an error status's
				e.RetryAfter = retryAfter(resp.Header, c.retry.now())
			}
			// A stream that broke off before any part of the answer lost
			// nothing: it is retried like a failed connection.
			return e, !partial && (again(e) || e.Kind == KindStreamCut)
		})
		if e == nil {
			return
		}
		if ctx.Err() != nil {
			select { // the consumer may be gone: never block here
			case ch <- Event{Type: EventError, Err: c.cancelled(ctx.Err())}:
			default:
			}
			return
		}
		ch <- Event{Type: EventError, Err: e}
	}()
	return ch
}

// read parses a 2xx answer, closing its body when ctx is cancelled.
func (c *endpoint) read(ctx context.Context, resp *http.Response, parse streamParser, emit func(Event) bool) error {
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return c.notAStream(resp)
	}
	stop := context.AfterFunc(ctx, func() { resp.Body.Close() })
	defer stop()
	defer resp.Body.Close()
	return parse(resp.Body, emit)
}

// RequestID is the id a provider gave a request: Anthropic's request-id,
// OpenAI's (and most compatible servers') x-request-id.
func RequestID(h http.Header) string {
	for _, k := range []string{"request-id", "x-request-id"} {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// notAStream reads a 2xx JSON answer to a streamed request: an error some
// proxies send with status 200, or a server that ignored "stream": true.
func (c *endpoint) notAStream(resp *http.Response) error {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	typ, msg := parseErrorBody(raw)
	e := &Error{Kind: KindInvalidResponse, Status: resp.StatusCode, Type: typ, Message: msg, RequestID: RequestID(resp.Header)}
	if k, ok := kindForType(typ); ok {
		e.Kind = k
	} else if msg == "" {
		e.Message = "it answered with JSON instead of a stream; the server must support \"stream\": true"
	}
	return e
}

// asError turns a parser's error into an *Error.
func (c *endpoint) asError(err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
	case errors.Is(err, ErrSSELineTooLong):
		e = &Error{Kind: KindInvalidResponse, Err: err}
	default:
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		e = &Error{Kind: KindStreamCut, Err: err}
	}
	return c.fill(e)
}

// getJSON fetches path and decodes the JSON answer into v.
func (c *endpoint) getJSON(ctx context.Context, path string, v any) error {
	return c.callJSON(ctx, http.MethodGet, path, nil, v)
}

// dataList fetches a list of the OpenAI shape, {"data": [...]}, at path.
// An entry not of T's shape is left out, so one odd entry does not cost
// the others.
func dataList[T any](ctx context.Context, c *endpoint, path string) ([]T, error) {
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := c.getJSON(ctx, path, &page); err != nil {
		return nil, err
	}
	out := make([]T, 0, len(page.Data))
	for _, raw := range page.Data {
		var v T
		if json.Unmarshal(raw, &v) == nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// postJSON posts body, encoded as JSON, to path and decodes the JSON
// answer into v.
func (c *endpoint) postJSON(ctx context.Context, path string, body, v any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return c.callJSON(ctx, http.MethodPost, path, raw, v)
}

// callJSON makes one request (retried as send retries) and decodes the
// JSON answer into v.
func (c *endpoint) callJSON(ctx context.Context, method, path string, body []byte, v any) error {
	resp, err := c.send(ctx, method, path, body, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(v); err != nil {
		return c.fill(&Error{Kind: KindInvalidResponse, Status: resp.StatusCode, Err: err})
	}
	return nil
}

// collect drains a stream into the answer's text, for Complete: it takes
// Stream's results as they are, so an error starting the stream is returned.
func collect(ch <-chan Event, err error) (string, Usage, error) {
	if err != nil {
		return "", Usage{}, err
	}
	var b strings.Builder
	var u Usage
	for ev := range ch {
		switch ev.Type {
		case EventTextDelta:
			b.WriteString(ev.Text)
		case EventUsage:
			u = ev.Usage
		case EventError:
			err = ev.Err
		}
	}
	return b.String(), u, err
}

// toolInput checks a tool call's assembled input. Empty input means no
// arguments ({}); anything but a JSON object is returned raw together with
// an error wrapping ErrInvalidToolInput, so the agent can answer the model
// with an error tool_result instead of failing the turn.
func toolInput(raw []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return []byte("{}"), nil
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		var v map[string]any
		err := json.Unmarshal(trimmed, &v)
		if err == nil {
			err = errors.New("not an object")
		}
		return raw, &toolInputError{cause: err}
	}
	return trimmed, nil
}

// toolInputError says why a tool input was rejected; it matches
// ErrInvalidToolInput.
type toolInputError struct{ cause error }

func (e *toolInputError) Error() string {
	return "the tool input is not a valid JSON object (" + e.cause.Error() + "); send the arguments as one JSON object"
}

func (e *toolInputError) Is(target error) bool { return target == ErrInvalidToolInput }
