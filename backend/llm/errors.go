package llm

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind classifies a failed model call so callers can react (compact on
// KindContextTooLong, ask for a key on KindAuth) without parsing messages.
type Kind string

const (
	KindAuth            Kind = "auth"             // 401: key missing or invalid
	KindPermission      Kind = "permission"       // 403: key valid, not allowed
	KindNotFound        Kind = "not_found"        // 404: wrong model or base URL
	KindBadRequest      Kind = "bad_request"      // 400, 422: the provider rejected the request
	KindContextTooLong  Kind = "context_too_long" // the conversation exceeds the context window
	KindTooLarge        Kind = "too_large"        // 413: request body too large
	KindRateLimit       Kind = "rate_limit"       // 429
	KindOverloaded      Kind = "overloaded"       // 529 or overloaded_error
	KindServer          Kind = "server"           // 5xx
	KindNetwork         Kind = "network"          // the host could not be reached
	KindCancelled       Kind = "cancelled"        // the caller cancelled the context
	KindStreamCut       Kind = "stream_cut"       // the answer broke off in the middle
	KindStalled         Kind = "stalled"          // the server sent nothing for the idle timeout
	KindInvalidResponse Kind = "invalid_response" // the server sent something we cannot read
	KindRefusal         Kind = "refusal"          // the model declined to answer (stop reason refusal); see Refusal
)

// Sentinels for errors.Is. An *Error matches the sentinel of its Kind;
// ErrInvalidToolInput is carried by EventToolDone when the model's tool input
// is not a JSON object.
var (
	ErrAuth             = errors.New("llm: authentication failed")
	ErrPermission       = errors.New("llm: permission denied")
	ErrNotFound         = errors.New("llm: not found")
	ErrBadRequest       = errors.New("llm: bad request")
	ErrContextTooLong   = errors.New("llm: context too long")
	ErrTooLarge         = errors.New("llm: request too large")
	ErrRateLimited      = errors.New("llm: rate limited")
	ErrOverloaded       = errors.New("llm: overloaded")
	ErrServer           = errors.New("llm: server error")
	ErrNetwork          = errors.New("llm: network error")
	ErrCancelled        = errors.New("llm: cancelled")
	ErrStreamCut        = errors.New("llm: stream cut")
	ErrStalled          = errors.New("llm: stream went silent")
	ErrInvalidResponse  = errors.New("llm: invalid response")
	ErrRefused          = errors.New("llm: the model declined to answer")
	ErrInvalidToolInput = errors.New("llm: tool input is not a JSON object")
)

var kindSentinel = map[Kind]error{
	KindAuth:            ErrAuth,
	KindPermission:      ErrPermission,
	KindNotFound:        ErrNotFound,
	KindBadRequest:      ErrBadRequest,
	KindContextTooLong:  ErrContextTooLong,
	KindTooLarge:        ErrTooLarge,
	KindRateLimit:       ErrRateLimited,
	KindOverloaded:      ErrOverloaded,
	KindServer:          ErrServer,
	KindNetwork:         ErrNetwork,
	KindCancelled:       ErrCancelled,
	KindStreamCut:       ErrStreamCut,
	KindStalled:         ErrStalled,
	KindInvalidResponse: ErrInvalidResponse,
	KindRefusal:         ErrRefused,
}

// Refusal is the error of an answer that ended with StopRefusal (Anthropic's
// stop_reason "refusal", an OpenAI-compatible server's finish_reason
// "content_filter"): the call succeeded, but the user gets no answer and
// must be told. why is the provider's explanation, if it gave one.
func Refusal(why string) *Error {
	return &Error{Kind: KindRefusal, Message: why}
}

// RefusalNote is the sentence kept in the session in place of, or after,
// the refused answer.
func RefusalNote(why string) string {
	s := "The model declined to answer this request (stop reason: refusal)"
	if why = strings.TrimRight(why, ". "); why != "" {
		s += ": " + why
	}
	return s + "."
}

// Error is a failed model call. Its Error text is one human sentence that
// says what happened and what to do; the fields carry the details.
type Error struct {
	Kind       Kind
	Provider   string        // "anthropic" or "openai"
	Host       string        // host of the base URL, e.g. "api.anthropic.com"
	Status     int           // HTTP status, 0 when there was no response
	Type       string        // the provider's error type, e.g. "overloaded_error"
	Message    string        // the provider's message, secrets redacted
	RetryAfter time.Duration // what the server asked us to wait, if it said
	Attempts   int           // requests made, retries included
	RequestID  string        // the id the server gave the request (request-id, x-request-id), for its support
	KeyHint    string        // where the key for this provider is set
	URLHint    string        // where the base URL is set ("": Settings)
	Partial    bool          // part of the answer arrived (and was delivered) before the failure
	// PartialText: some text of the answer arrived; the agent keeps it. A
	// failure after only thinking or a tool call has no partial answer to
	// speak of.
	PartialText bool
	Err         error // the underlying cause, if any

	retryOnce bool // retried once although not Retryable (Groq's tool_use_failed)
}

// Error returns the same sentence as Human.
func (e *Error) Error() string { return e.Human() }

// Unwrap returns the underlying cause (a net error, context.Canceled...).
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's Kind.
func (e *Error) Is(target error) bool { return kindSentinel[e.Kind] == target }

// Retryable reports whether the same request may succeed later.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindRateLimit, KindOverloaded, KindServer, KindNetwork, KindStalled:
		return true
	}
	return false
}

// service names the other side for a sentence.
func (e *Error) service() string {
	switch {
	case e.Provider == "anthropic" && (e.Host == "" || e.Host == "api.anthropic.com"):
		return "Anthropic"
	case e.Provider == "openai" && (e.Host == "" || e.Host == "api.openai.com"):
		return "OpenAI"
	case e.Host != "":
		return "the model server at " + e.Host
	}
	return "the model server"
}

// Human returns one sentence for the error banner: what went wrong and what
// the user can do about it.
func (e *Error) Human() string {
	svc := e.service()
	var b strings.Builder
	if e.Kind == KindAuth && e.Status == 0 && e.Type == "" {
		return fmt.Sprintf("%s needs an API key and none is set; set it with %s.", upperFirst(svc), e.KeyHint)
	}
	switch e.Kind {
	case KindAuth:
		fmt.Fprintf(&b, "%s rejected the API key%s%s. Check the key", upperFirst(svc), e.paren(), e.detail())
		if e.KeyHint != "" {
			fmt.Fprintf(&b, ": it is set with %s", e.KeyHint)
		}
		b.WriteString(".")
	case KindPermission:
		fmt.Fprintf(&b, "%s refused the request%s%s; the key works but is not allowed to do this, check its permissions and the model name.", upperFirst(svc), e.paren(), e.detail())
	case KindNotFound:
		fmt.Fprintf(&b, "%s answered 404%s; check the model name and %s.", upperFirst(svc), e.detail(), e.urlHint())
	case KindBadRequest:
		if e.Type == typeImagesUnsupported { // refused before sending
			return upperFirst(e.Message) + "."
		}
		if e.Type == codeToolUseFailed {
			fmt.Fprintf(&b, "The model at %s wrote a tool call the server could not read (%s)%s", e.hostOrService(), e.Type, e.detail())
			b.WriteString(e.gaveUp("try again, or choose another model"))
			break
		}
		fmt.Fprintf(&b, "%s rejected the request%s%s.", upperFirst(svc), e.paren(), e.detail())
	case KindContextTooLong:
		fmt.Fprintf(&b, "The conversation is too long for the model's context window%s; compact it or start a new session.", e.detail())
	case KindTooLarge:
		fmt.Fprintf(&b, "The request is too large for %s%s%s; remove big files or tool outputs from the conversation.", svc, e.paren(), e.detail())
	case KindRateLimit:
		code := "429"
		if e.Status != 429 && e.Type != "" { // reported inside a stream: say what it said
			code = e.Type
		}
		fmt.Fprintf(&b, "%s is rate limiting requests (%s)%s", upperFirst(svc), code, e.detail())
		b.WriteString(e.gaveUp("wait a minute and try again, or check your plan's rate limits"))
	case KindOverloaded, KindServer:
		fmt.Fprintf(&b, "%s is having trouble%s%s", upperFirst(svc), e.paren(), e.detail())
		b.WriteString(e.gaveUp("try again in a few minutes"))
	case KindNetwork:
		host := e.Host
		if host == "" {
			host = "the model server"
		}
		fmt.Fprintf(&b, "Could not reach %s", host)
		if e.Err != nil {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		b.WriteString(e.gaveUp("check the network connection and " + e.urlHint()))
	case KindCancelled:
		b.WriteString("The request was cancelled.")
	case KindRefusal:
		// Anthropic: the same context is refused again; it must be reset.
		fmt.Fprintf(&b, "The model declined to answer this request%s. Asking again in this session will likely be declined too: rephrase the request in a new session.", e.detail())
	case KindStreamCut:
		fmt.Fprintf(&b, "The connection to %s broke off", svc)
		if e.Partial {
			b.WriteString(" in the middle of the answer")
		} else {
			b.WriteString(" before the answer began")
		}
		if e.Err != nil {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		b.WriteString(e.gaveUp("try again, or check the network connection"))
	case KindStalled:
		fmt.Fprintf(&b, "%s went silent", upperFirst(svc))
		if e.Partial {
			b.WriteString(" in the middle of the answer")
		}
		if e.Err != nil {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		b.WriteString(e.gaveUp("try again, or check the network connection"))
	default:
		fmt.Fprintf(&b, "%s sent an answer Pilot could not read%s", upperFirst(svc), e.detail())
		if e.Err != nil && e.Message == "" {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		b.WriteString(".")
	}
	if e.PartialText {
		b.WriteString(" The partial answer was kept.")
	}
	return b.String()
}

// urlHint names where the base URL is set.
func (e *Error) urlHint() string {
	if e.URLHint != "" {
		return e.URLHint
	}
	return "the base URL in Settings"
}

// hostOrService names the server by its host when there is one.
func (e *Error) hostOrService() string {
	if e.Host != "" {
		return e.Host
	}
	return e.service()
}

// paren is " (status text)", or nothing when there is neither a status
// nor a type.
func (e *Error) paren() string {
	if e.Status == 0 && e.Type == "" {
		return ""
	}
	return " (" + e.statusText() + ")"
}

// gaveUp ends a sentence about a retryable failure with the retry outcome.
func (e *Error) gaveUp(advice string) string {
	var s string
	if e.Attempts > 1 {
		s = fmt.Sprintf(" and still failed after %d retries", e.Attempts-1)
	}
	if e.RetryAfter > 0 {
		return fmt.Sprintf("%s; it asked to wait %s, try again then.", s, roundDuration(e.RetryAfter))
	}
	return s + "; " + advice + "."
}

func (e *Error) statusText() string {
	switch {
	case e.Status == 0 && e.Type != "":
		return e.Type
	case e.Type != "":
		return fmt.Sprintf("%d %s", e.Status, e.Type)
	case e.Status == 529:
		return "529 overloaded"
	}
	return fmt.Sprint(e.Status)
}

func (e *Error) detail() string {
	if e.Message == "" {
		return ""
	}
	return ": " + strings.TrimRight(e.Message, ". ")
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// roundDuration prints d as "4 s", "2 min" or "1 h" for sentences.
func roundDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < 2*time.Minute:
		return fmt.Sprintf("%d s", int((d+time.Second/2)/time.Second))
	case d < 2*time.Hour:
		return fmt.Sprintf("%d min", int((d+time.Minute/2)/time.Minute))
	}
	return fmt.Sprintf("%d h", int((d+time.Hour/2)/time.Hour))
}

// statusKinds are the HTTP statuses with a Kind of their own.
var statusKinds = map[int]Kind{
	400: KindBadRequest,
	422: KindBadRequest,
	401: KindAuth,
	403: KindPermission,
	404: KindNotFound,
	413: KindTooLarge,
	429: KindRateLimit,
	529: KindOverloaded,
}

// kindForStatus maps an HTTP status to a Kind: its own, else any other 5xx
// is the server's, anything else a bad request.
func kindForStatus(status int) Kind {
	if k, ok := statusKinds[status]; ok {
		return k
	}
	if status >= 500 {
		return KindServer
	}
	return KindBadRequest
}

// kindForType maps a provider error type (Anthropic's error.type, OpenAI's
// error.type or code) to a Kind; ok is false for unknown types.
func kindForType(t string) (Kind, bool) {
	switch t {
	case "authentication_error", "invalid_api_key":
		return KindAuth, true
	case "permission_error", "insufficient_quota":
		return KindPermission, true
	case "not_found_error", "model_not_found":
		return KindNotFound, true
	case "invalid_request_error":
		return KindBadRequest, true
	case "request_too_large":
		return KindTooLarge, true
	case "rate_limit_error", "rate_limit_exceeded":
		return KindRateLimit, true
	case "overloaded_error":
		return KindOverloaded, true
	case "api_error", "server_error":
		return KindServer, true
	case "context_length_exceeded":
		return KindContextTooLong, true
	}
	return "", false
}

// looksLikeContextTooLong recognises the many ways servers say the prompt
// does not fit.
func looksLikeContextTooLong(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{
		"prompt is too long",
		"context_length_exceeded",
		"maximum context length",
		"context window",
		"exceeds the available context",
		"exceeds the context",
		"context length exceeded",
		"too many tokens",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}
