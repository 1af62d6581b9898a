package service

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// ErrSettings marks (wrapped) an error of the configuration itself: an
// unknown provider, a settings file that cannot be read. The command line
// exits 2 on it, as for a wrong flag.
var ErrSettings = errors.New("the configuration is not valid")

// settingsError keeps err's sentence and marks it as ErrSettings.
type settingsError struct{ err error }

func (e settingsError) Error() string        { return e.err.Error() }
func (e settingsError) Is(target error) bool { return target == ErrSettings }
func (e settingsError) Unwrap() error        { return e.err }

// ModelsIn asks the server in force for the project at dir (provider, if
// not empty, chosen as --provider or PILOT_PROVIDER would) for its
// models, with the same provider, base URL and key as a turn there. A
// server that cannot be reached or refuses the key is an error whose
// sentence has every key redacted.
func (st *Settings) ModelsIn(ctx context.Context, dir, provider string) (wire.ModelList, error) {
	r, err := config.Resolve(st.home, dir, config.Choose(st.getenv, provider, ""))
	if err != nil {
		return wire.ModelList{}, settingsError{err}
	}
	cfg := r.LLM()
	ms, err := llm.ListModels(ctx, cfg)
	if err != nil {
		return wire.ModelList{Provider: cfg.Provider, BaseURL: cfg.BaseURL}, fmt.Errorf("%s", config.Redact(r.Redact(err.Error()), cfg.APIKey))
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	sort.Strings(ids)
	return wire.ModelList{Provider: cfg.Provider, BaseURL: cfg.BaseURL, Models: ids}, nil
}
