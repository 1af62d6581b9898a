package mcp

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// oauthTransport signs the requests of an HTTP+SSE server in with h, as
// the SDK's Streamable HTTP transport does itself (its SSE transport has
// no OAuthHandler): the kept token goes in the Authorization header, and
// a 401 or 403 goes to h.Authorize (a refresh, or the SignInError that
// asks the user to sign in), after which the request is sent once more.
type oauthTransport struct {
	base http.RoundTripper
	h    auth.OAuthHandler
}

func (t oauthTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.send(r)
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	if r.Body != nil && r.GetBody == nil {
		return resp, nil // cannot be sent again: the caller sees the refusal
	}
	if err := t.h.Authorize(r.Context(), r, resp); err != nil { // closes resp.Body
		return nil, err
	}
	again := r.Clone(r.Context())
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		again.Body = body
	}
	return t.send(again)
}

// send sends r with the kept token, when there is one.
func (t oauthTransport) send(r *http.Request) (*http.Response, error) {
	ts, err := t.h.TokenSource(r.Context())
	if err != nil {
		return nil, err
	}
	if ts != nil {
		tok, err := ts.Token()
		if err != nil {
			return nil, err
		}
		r = r.Clone(r.Context()) // the same body: a request is never changed
		tok.SetAuthHeader(r)
	}
	return t.base.RoundTrip(r)
}
