package fakellm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Server is a running fake LLM server.
type Server struct {
	mu       sync.Mutex
	script   Script
	used     []bool
	requests []Request
	titles   int

	srv *http.Server
	url string
}

// New starts a server on a free port of 127.0.0.1. It panics when no port
// can be opened, like httptest.NewServer.
func New(script Script) *Server {
	s, err := Start(script, "127.0.0.1:0")
	if err != nil {
		panic("fakellm: " + err.Error())
	}
	return s
}

// Start starts a server on addr ("127.0.0.1:0" picks a free port).
func Start(script Script, addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{url: "http://" + ln.Addr().String()}
	s.Reset(script)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.model("anthropic"))
	mux.HandleFunc("POST /v1/chat/completions", s.model("openai"))
	mux.HandleFunc("POST /chat/completions", s.model("openai"))
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("GET /models", s.models)
	mux.HandleFunc("GET /_fakellm/requests", s.listRequests)
	mux.HandleFunc("POST /_fakellm/script", s.replaceScript)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the server's root, e.g. http://127.0.0.1:41234. It is also the
// Anthropic base URL (ANTHROPIC_BASE_URL has no /v1).
func (s *Server) URL() string { return s.url }

// OpenAIBaseURL is URL + "/v1", the OPENAI_BASE_URL of this server.
func (s *Server) OpenAIBaseURL() string { return s.url + "/v1" }

// Close stops the server and closes its connections.
func (s *Server) Close() { _ = s.srv.Close() }

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ModelRequests returns the model calls received so far, oldest first:
// Requests without the model lists and other endpoints (Pilot asks a
// server what it says of a model before a session's first call).
func (s *Server) ModelRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Format != "" {
			out = append(out, r)
		}
	}
	return out
}

// Reset replaces the script and forgets the requests.
func (s *Server) Reset(script Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = script
	s.used = make([]bool, len(script.Turns))
	s.requests = nil
}

// next records r and picks the first unused turn that matches it.
func (s *Server) next(r Request) (Turn, Request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Turn = -1
	if strings.HasPrefix(r.LastUserText, TitlePrefix) {
		s.titles++
		return Turn{Text: titleFor(r.LastUserText)}, r, true
	}
	for i := range s.script.Turns {
		t := &s.script.Turns[i]
		if s.used[i] || !t.matches(r) {
			continue
		}
		s.used[i] = !t.Repeat
		r.Turn = i
		s.requests = append(s.requests, r)
		return *t, r, true
	}
	s.requests = append(s.requests, r)
	return Turn{}, r, false
}

// TitlePrefix starts the prompt Pilot sends to name a session. Such a
// request is answered with the first words of the conversation's user text,
// uses up no turn of the script and is not in the request log (see
// TitleRequests), so scripts stay the same whether a client asks for titles
// or not.
const TitlePrefix = "Write a title"

// TitleRequests counts the title requests answered.
func (s *Server) TitleRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.titles
}

// titleFor makes a title of the first words after "User: " in a title prompt.
func titleFor(prompt string) string {
	_, user, _ := strings.Cut(prompt, "User: ")
	user, _, _ = strings.Cut(user, "\n\nAssistant:") // the user's words only, not the answer's label
	words := strings.Fields(user)
	if len(words) > 5 {
		words = words[:5]
	}
	if len(words) == 0 {
		return "Untitled"
	}
	return "About " + strings.Join(words, " ")
}

func (s *Server) authorized(h http.Header) bool {
	s.mu.Lock()
	key := s.script.APIKey
	s.mu.Unlock()
	return key == "" || h.Get("X-Api-Key") == key || h.Get("Authorization") == "Bearer "+key
}

// requestIDHeader is where each provider sends a request's id.
var requestIDHeader = map[string]string{"anthropic": "request-id", "openai": "x-request-id"}

// model serves POST /v1/messages and /chat/completions.
func (s *Server) model(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, hr *http.Request) {
		raw, err := io.ReadAll(hr.Body)
		if err != nil {
			return
		}
		req := Request{Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Format: format, Header: redactHeaders(hr.Header)}
		req.decode(raw)
		// Every answer names its request, as the real servers do.
		s.mu.Lock()
		w.Header().Set(requestIDHeader[format], fmt.Sprintf("req_fake_%d", len(s.requests)+1))
		s.mu.Unlock()
		if !s.authorized(hr.Header) {
			req.Turn = -1
			s.mu.Lock()
			s.requests = append(s.requests, req)
			s.mu.Unlock()
			writeError(w, format, http.StatusUnauthorized, "", "", "fakellm: invalid API key")
			return
		}
		turn, req, ok := s.next(req)
		if !ok {
			writeError(w, format, http.StatusBadRequest, "", "", fmt.Sprintf("fakellm: no scripted turn left for request %d (last user message %q)", len(s.Requests()), truncate(req.LastUserText, 80)))
			return
		}
		if f := turn.Fault; f != nil && f.Status != 0 {
			writeError(w, format, f.Status, f.RetryAfter, f.Body, fmt.Sprintf("fakellm: injected %d", f.Status))
			return
		}
		if turn.Fixture != "" || turn.Raw != "" {
			replay(w, turn)
			return
		}
		frames := anthropicFrames(turn, req, len(raw))
		if format == "openai" {
			frames = openaiFrames(turn, req, len(raw))
		}
		stream(w, hr, frames, turn.Fault, format)
	}
}

// replay writes a fixture byte for byte.
func replay(w http.ResponseWriter, t Turn) {
	body := []byte(t.Raw)
	if t.Fixture != "" {
		var err error
		if body, err = os.ReadFile(t.Fixture); err != nil {
			http.Error(w, "fakellm: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = w.Write(body)
}

// writeError answers with status and an error body in the provider's
// format (or body verbatim when given).
func writeError(w http.ResponseWriter, format string, status int, retryAfter, body, msg string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	if body == "" {
		typ := errorType(status)
		var b []byte
		if format == "openai" {
			b, _ = json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil}})
		} else {
			b, _ = json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
		}
		body = string(b)
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// errorType is Anthropic's error type for a status.
func errorType(status int) string {
	switch status {
	case 400, 422:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

// models serves the model list in a shape both clients read.
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids, lengths := s.script.Models, s.script.ContextLengths
	s.requests = append(s.requests, Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, Header: redactHeaders(r.Header), Turn: -1})
	s.mu.Unlock()
	if len(ids) == 0 {
		ids = []string{"claude-sonnet-4-5", "gpt-4o"}
	}
	data := make([]map[string]any, 0, len(ids))
	for _, id := range ids {
		m := map[string]any{"id": id, "object": "model", "type": "model", "display_name": id, "owned_by": "fakellm", "created": 0}
		if n, ok := lengths[id]; ok {
			m["context_length"] = n
		}
		data = append(data, m)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "has_more": false})
}

// listRequests serves GET /_fakellm/requests for harnesses in other
// processes.
func (s *Server) listRequests(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.Requests())
}

// replaceScript serves POST /_fakellm/script: the body is a new script.
func (s *Server) replaceScript(w http.ResponseWriter, r *http.Request) {
	var script Script
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&script); err != nil {
		http.Error(w, "fakellm: bad script: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.Reset(script)
	w.WriteHeader(http.StatusNoContent)
}

// stream writes frames as server-sent events, applying the fault.
func stream(w http.ResponseWriter, r *http.Request, frames func(yield func([]byte) bool), f *Fault, format string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if f == nil {
		f = &Fault{}
	}
	n := 0
	for frame := range frames {
		if f.CutAfterEvents > 0 && n == f.CutAfterEvents {
			_ = rc.Flush()
			panic(http.ErrAbortHandler) // closes the connection without ending the response
		}
		if f.StallAfterEvents > 0 && n == f.StallAfterEvents {
			_ = rc.Flush()
			<-r.Context().Done() // the client gave up, or the server is closing
			return
		}
		if f.ErrorAfterEvents > 0 && n == f.ErrorAfterEvents {
			_, _ = w.Write(errorFrame(format, f))
			_ = rc.Flush()
			return
		}
		if f.DelayMs > 0 {
			select {
			case <-time.After(time.Duration(f.DelayMs) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		if _, err := w.Write(frame); err != nil {
			return
		}
		if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return
		}
		n++
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
