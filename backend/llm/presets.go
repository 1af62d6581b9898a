package llm

import (
	"net/url"
	"strings"
)

// Quirks are how an OpenAI-compatible server departs from OpenAI's chat
// completions API. They are data: the client reads them, it never asks
// which server it talks to. The zero value is what Pilot assumes of a
// server it does not know (the generic "openai" choice with a custom URL).
type Quirks struct {
	// MaxTokensField names the answer limit: "max_tokens" or
	// "max_completion_tokens". Empty: by model (max_completion_tokens
	// for OpenAI's reasoning models, max_tokens otherwise).
	MaxTokensField string `json:"maxTokensField,omitempty"`
	// NoStreamOptions: the server refuses stream_options (Mistral answers
	// 422 extra_forbidden) and sends usage in its last chunk anyway.
	NoStreamOptions bool `json:"noStreamOptions,omitempty"`
	// ReasoningField is the field the server streams thinking in
	// (FieldReasoningContent or FieldReasoning); empty when it sends none
	// or we do not know. Thinking that arrives in another field is still
	// read; see reasoningBack for what goes back.
	ReasoningField string `json:"reasoningField,omitempty"`
	// ReasoningBack: every assistant message carries ReasoningField, empty
	// where no thinking arrived, even before the server sent any in this
	// conversation (DeepSeek's thinking mode refuses a tool-call turn
	// without it).
	ReasoningBack bool `json:"reasoningBack,omitempty"`
	// StrictMessages: the server refuses any message field it does not
	// know, so thinking never goes back (Mistral: 422 extra_forbidden).
	StrictMessages bool `json:"strictMessages,omitempty"`
	// OllamaTags: when {base}/models is absent, the model list is Ollama's
	// GET /api/tags at the server's root.
	OllamaTags bool `json:"ollamaTags,omitempty"`
	// Headers are sent with every request.
	Headers map[string]string `json:"headers,omitempty"`
}

// Preset is a known server: its protocol, base URL, the environment
// variable its key is read from, and its quirks.
type Preset struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Provider string `json:"provider"` // the protocol: ProviderAnthropic or ProviderOpenAI
	BaseURL  string `json:"baseUrl"`
	// KeyEnv is the environment variable the key is read from ("" for a
	// server that takes none); BaseEnv the one that overrides the base URL.
	KeyEnv   string `json:"keyEnv,omitempty"`
	BaseEnv  string `json:"baseEnv,omitempty"`
	NeedsKey bool   `json:"needsKey"`
	Local    bool   `json:"local,omitempty"` // runs on the user's machine
	Model    string `json:"model,omitempty"` // a sensible default model, if any
	Quirks   Quirks `json:"quirks"`
	// Docs is where the quirks were read.
	Docs string `json:"docs,omitempty"`
}

// presets is the table. Sources (Docs) are the providers' API references;
// see also docs/ARCHITECTURE.md.
var presets = []Preset{
	{ID: "anthropic", Name: "Anthropic", Provider: ProviderAnthropic, BaseURL: "https://api.anthropic.com",
		KeyEnv: "ANTHROPIC_API_KEY", BaseEnv: "ANTHROPIC_BASE_URL", NeedsKey: true, Model: DefaultAnthropicModel,
		Docs: "https://docs.anthropic.com/en/api/messages"},
	{ID: "openai", Name: "OpenAI", Provider: ProviderOpenAI, BaseURL: "https://api.openai.com/v1",
		KeyEnv: "OPENAI_API_KEY", BaseEnv: "OPENAI_BASE_URL", NeedsKey: true, Model: DefaultOpenAIModel,
		Docs: "https://platform.openai.com/docs/api-reference/chat/create"},
	{ID: "openrouter", Name: "OpenRouter", Provider: ProviderOpenAI, BaseURL: "https://openrouter.ai/api/v1",
		KeyEnv: "OPENROUTER_API_KEY", NeedsKey: true, Model: "anthropic/claude-sonnet-4.5",
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoning,
			Headers: map[string]string{"X-Title": "Pilot"}},
		Docs: "https://openrouter.ai/docs/api-reference/overview"},
	{ID: "deepseek", Name: "DeepSeek", Provider: ProviderOpenAI, BaseURL: "https://api.deepseek.com",
		KeyEnv: "DEEPSEEK_API_KEY", NeedsKey: true, Model: "deepseek-v4-flash",
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoningContent, ReasoningBack: true},
		Docs:   "https://api-docs.deepseek.com/guides/thinking_mode"},
	{ID: "mistral", Name: "Mistral", Provider: ProviderOpenAI, BaseURL: "https://api.mistral.ai/v1",
		KeyEnv: "MISTRAL_API_KEY", NeedsKey: true, Model: "devstral-medium-latest",
		Quirks: Quirks{MaxTokensField: "max_tokens", NoStreamOptions: true, StrictMessages: true},
		Docs:   "https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post"},
	{ID: "groq", Name: "Groq", Provider: ProviderOpenAI, BaseURL: "https://api.groq.com/openai/v1",
		KeyEnv: "GROQ_API_KEY", NeedsKey: true, Model: "openai/gpt-oss-120b",
		Quirks: Quirks{MaxTokensField: "max_completion_tokens", ReasoningField: FieldReasoning},
		Docs:   "https://console.groq.com/docs/api-reference#chat-create"},
	{ID: "gemini", Name: "Gemini", Provider: ProviderOpenAI, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
		KeyEnv: "GEMINI_API_KEY", NeedsKey: true, Model: "gemini-flash-latest",
		Quirks: Quirks{MaxTokensField: "max_tokens"},
		Docs:   "https://ai.google.dev/gemini-api/docs/openai"},
	{ID: "xai", Name: "xAI", Provider: ProviderOpenAI, BaseURL: "https://api.x.ai/v1",
		KeyEnv: "XAI_API_KEY", NeedsKey: true, Model: "grok-code-fast-1",
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoningContent},
		Docs:   "https://docs.x.ai/docs/api-reference#chat-completions"},
	{ID: "ollama", Name: "Ollama", Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1", Local: true,
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoning, OllamaTags: true},
		Docs:   "https://github.com/ollama/ollama/blob/main/docs/openai.md"},
	{ID: "lmstudio", Name: "LM Studio", Provider: ProviderOpenAI, BaseURL: "http://localhost:1234/v1", Local: true,
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoningContent},
		Docs:   "https://lmstudio.ai/docs/app/api/endpoints/openai"},
	{ID: "llamacpp", Name: "llama.cpp server", Provider: ProviderOpenAI, BaseURL: "http://localhost:8080/v1", Local: true,
		KeyEnv: "LLAMA_API_KEY",
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoningContent},
		Docs:   "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md"},
	{ID: "vllm", Name: "vLLM", Provider: ProviderOpenAI, BaseURL: "http://localhost:8000/v1", Local: true,
		KeyEnv: "VLLM_API_KEY",
		Quirks: Quirks{MaxTokensField: "max_tokens", ReasoningField: FieldReasoningContent},
		Docs:   "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"},
}

// Presets returns the servers the Settings screen and --provider offer.
func Presets() []Preset {
	out := make([]Preset, len(presets))
	copy(out, presets)
	return out
}

// LookupPreset finds a preset by its id (case-insensitive).
func LookupPreset(id string) (Preset, bool) {
	id = strings.ToLower(strings.TrimSpace(id))
	for _, p := range presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetIDs lists the ids, for messages.
func PresetIDs() []string {
	ids := make([]string, len(presets))
	for i, p := range presets {
		ids[i] = p.ID
	}
	return ids
}

// quirksFor returns the quirks of the server at base chosen as preset id:
// the preset's; for the generic "openai" choice, those of the hosted
// preset whose host base is on (OPENAI_BASE_URL=https://api.deepseek.com
// gets DeepSeek's), else none.
func quirksFor(id, base string) Quirks {
	p, ok := LookupPreset(id)
	if ok && p.ID != ProviderOpenAI {
		return p.Quirks // the user said which server it is, wherever it runs
	}
	host := urlHost(base)
	for _, p := range presets {
		if !p.Local && urlHost(p.BaseURL) == host {
			return p.Quirks
		}
	}
	return Quirks{}
}

func urlHost(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// KeyHint says where the key of preset id is set, for error messages.
func KeyHint(id string) string {
	p, ok := LookupPreset(id)
	switch {
	case !ok || p.ID == ProviderOpenAI:
		return openaiKeyHint
	case p.ID == ProviderAnthropic:
		return anthropicKeyHint
	case p.KeyEnv == "":
		return "Settings"
	}
	return "the " + p.KeyEnv + " environment variable or Settings"
}

// presetName is the display name of a preset ("" for an unknown id).
func presetName(id string) string {
	p, _ := LookupPreset(id)
	return p.Name
}
