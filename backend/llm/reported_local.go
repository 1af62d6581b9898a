package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// reportOllama asks Ollama (https://github.com/ollama/ollama/blob/main/docs/api.md)
// what it has of model: POST /api/show gives the trained context
// (model_info's "<arch>.context_length", general.architecture naming the
// arch) and the num_ctx the model is set to load with; GET /api/ps the
// context the model is loaded with now, if it is loaded. A model Ollama
// does not have is ErrNotReported; /api/ps failing leaves Loaded unsaid.
func (o *OpenAI) reportOllama(ctx context.Context, model string) (Reported, error) {
	ep := o.serverRoot()
	var show struct {
		Parameters string                     `json:"parameters"`
		ModelInfo  map[string]json.RawMessage `json:"model_info"`
	}
	if err := ep.postJSON(ctx, "/api/show", map[string]string{"model": model}, &show); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Kind == KindNotFound && o.preset == "ollama" {
			return Reported{}, ErrNotReported
		}
		return Reported{}, err
	}
	var arch string
	_ = json.Unmarshal(show.ModelInfo["general.architecture"], &arch)
	var window int64
	if arch != "" {
		_ = json.Unmarshal(show.ModelInfo[arch+".context_length"], &window)
	}
	r := Reported{Window: tokens(window), Configured: numCtx(show.Parameters)}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int64  `json:"context_length"`
		} `json:"models"`
	}
	if err := ep.getJSON(ctx, "/api/ps", &ps); err != nil {
		if ctx.Err() != nil {
			return Reported{}, err
		}
		return r, nil
	}
	for _, m := range ps.Models {
		if sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model) {
			r.Loaded = tokens(m.ContextLength)
			break
		}
	}
	return r, nil
}

// numCtx reads num_ctx from Ollama's parameters, one "name value" a line
// ("temperature 0.7\nnum_ctx 2048"); 0 when it is not set.
func numCtx(parameters string) int {
	for _, line := range strings.Split(parameters, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return tokens(n)
		}
	}
	return 0
}

// sameOllamaModel: Ollama names a model without a tag as its ":latest".
func sameOllamaModel(a, b string) bool {
	tagged := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if s != "" && !strings.Contains(s[strings.LastIndexByte(s, '/')+1:], ":") {
			s += ":latest"
		}
		return s
	}
	return a != "" && tagged(a) == tagged(b)
}

// reportLMStudio asks LM Studio what it has of model: GET /api/v1/models
// (LM Studio 0.4, https://lmstudio.ai/docs/developer/rest/list) gives
// max_context_length and each loaded instance's context_length; before
// 0.4 (a 404), GET /api/v0/models (https://lmstudio.ai/docs/developer/rest/endpoints)
// gives max_context_length and, for a loaded model, loaded_context_length.
func (o *OpenAI) reportLMStudio(ctx context.Context, model string) (Reported, error) {
	ep := o.serverRoot()
	var v1 struct {
		Models []struct {
			Key              string `json:"key"`
			MaxContextLength int64  `json:"max_context_length"`
			LoadedInstances  []struct {
				ID     string `json:"id"`
				Config struct {
					ContextLength int64 `json:"context_length"`
				} `json:"config"`
			} `json:"loaded_instances"`
		} `json:"models"`
	}
	err := ep.getJSON(ctx, "/api/v1/models", &v1)
	var e *Error
	if errors.As(err, &e) && e.Kind == KindNotFound {
		return o.reportLMStudioV0(ctx, ep, model)
	}
	if err != nil {
		return Reported{}, err
	}
	for _, m := range v1.Models {
		named := strings.EqualFold(m.Key, model)
		loaded := 0
		for _, in := range m.LoadedInstances {
			named = named || strings.EqualFold(in.ID, model)
			// the smallest context of the instances: any of them may answer
			if n := tokens(in.Config.ContextLength); n > 0 && (loaded == 0 || n < loaded) {
				loaded = n
			}
		}
		if named {
			return Reported{Window: tokens(m.MaxContextLength), Loaded: loaded}, nil
		}
	}
	return Reported{}, ErrNotReported
}

// reportLMStudioV0 reads LM Studio's REST API v0 (0.3.6 to 0.3.x).
func (o *OpenAI) reportLMStudioV0(ctx context.Context, ep endpoint, model string) (Reported, error) {
	data, err := dataList[struct {
		ID                  string `json:"id"`
		State               string `json:"state"`
		MaxContextLength    int64  `json:"max_context_length"`
		LoadedContextLength int64  `json:"loaded_context_length"`
	}](ctx, &ep, "/api/v0/models")
	if err != nil {
		return Reported{}, err
	}
	for _, m := range data {
		if !strings.EqualFold(m.ID, model) {
			continue
		}
		r := Reported{Window: tokens(m.MaxContextLength)}
		if m.State == "loaded" {
			r.Loaded = tokens(m.LoadedContextLength)
		}
		return r, nil
	}
	return Reported{}, ErrNotReported
}
