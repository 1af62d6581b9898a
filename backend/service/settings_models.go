package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/modelfacts"
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
	return listModels(ctx, st.facts, r)
}

// listModels asks the server of r for its models, and each one's facts.
func listModels(ctx context.Context, facts *modelfacts.Catalog, r config.Resolved) (wire.ModelList, error) {
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
	all := facts.ForAll(ctx, cfg, r.Models, ids)
	out := wire.ModelList{Provider: cfg.Provider, BaseURL: cfg.BaseURL, Models: ids, Facts: make([]wire.ModelFacts, len(all))}
	for i, f := range all {
		out.Facts[i] = f.Wire()
	}
	return out, nil
}

// SetModelOverride saves what the user states of a model (Settings ›
// Models): it replaces the model's override, and one with no fact set
// removes it. A fact out of bounds is refused with a sentence, and
// nothing is saved.
func (st *Settings) SetModelOverride(o wire.ModelOverride) (wire.SettingsView, error) {
	cur, err := config.LoadSettings(st.home)
	if err != nil && !isCorrupt(err) {
		return wire.SettingsView{}, err
	}
	models := maps.Clone(cur.Models)
	if models == nil {
		models = map[string]config.ModelOverride{}
	}
	id := strings.TrimSpace(o.ID)
	if o.Window == 0 && o.MaxOutput == 0 && o.Prices == nil {
		delete(models, id)
	} else {
		models[id] = config.ModelOverride{Window: o.Window, MaxOutput: o.MaxOutput, Prices: o.Prices}
		if err := config.CheckModels(map[string]config.ModelOverride{id: models[id]}); err != nil {
			return wire.SettingsView{}, settingsError{err} // the sentence alone
		}
	}
	cur.Models = models
	if err := config.SaveSettings(st.home, cur); err != nil {
		return wire.SettingsView{}, err
	}
	return st.Get()
}

// modelOverrides is the user's overrides as the window lists them, by id.
func modelOverrides(models map[string]config.ModelOverride) []wire.ModelOverride {
	out := make([]wire.ModelOverride, 0, len(models))
	for _, id := range slices.Sorted(maps.Keys(models)) {
		m := models[id]
		out = append(out, wire.ModelOverride{ID: id, Window: m.Window, MaxOutput: m.MaxOutput, Prices: m.Prices})
	}
	return out
}

// Models lists the models of a session's server, with each one's facts,
// for the session's model picker: the same server, key and overrides as
// its turns.
func (se *Sessions) Models(ctx context.Context, id int64) (wire.ModelList, error) {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.ModelList{}, err
	}
	r, err := se.svc.Turns.sessionConfig(ctx, s)
	if err != nil {
		return wire.ModelList{}, settingsError{err}
	}
	return listModels(ctx, se.facts, r)
}
