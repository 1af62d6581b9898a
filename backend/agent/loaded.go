package agent

import (
	"fmt"

	"pilot/backend/modelfacts"
	"pilot/backend/wire"
)

// warnLoaded tells the user, once a turn, that the server has the model
// loaded with a context smaller than the request about to be sent (tokens,
// estimated): such a server (Ollama's OpenAI-compatible endpoint) cuts the
// conversation's start without an error, and the model answers without
// it.
func (t *turn) warnLoaded(tokens int) {
	if t.facts.Loaded == 0 || tokens <= t.facts.Loaded || t.toldLoaded {
		return
	}
	t.toldLoaded = true
	t.l.notice(string(wire.NoticeContext), loadedNotice(t.facts, tokens), 0)
}

// loadedNotice says that f's server will cut a conversation of tokens, and
// how to raise the context it loads the model with.
func loadedNotice(f modelfacts.Facts, tokens int) string {
	want := 1 << 12
	for want < 2*tokens {
		want <<= 1
	}
	if f.Window.From == wire.FactServer && f.Window.Value > f.Loaded {
		want = min(want, f.Window.Value) // no more than the model was trained for
	}
	how := "raise the context the server loads the model with, and load it again"
	switch f.Server {
	case "Ollama":
		how = fmt.Sprintf("start Ollama with OLLAMA_CONTEXT_LENGTH=%d (or set num_ctx in the model's Modelfile) and load the model again", want)
	case "LM Studio":
		how = fmt.Sprintf("load the model in LM Studio with a Context Length of %d or more", want)
	}
	return fmt.Sprintf("%s has %s loaded with a %s-token context, and this conversation is about %s tokens: %s will cut its start without saying so, and the model will answer without it. To keep it whole, %s.",
		f.Server, f.Model, kTokens(f.Loaded), kTokens(tokens), f.Server, how)
}
