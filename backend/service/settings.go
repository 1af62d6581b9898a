package service

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/secret"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Settings are Pilot's settings: providers, models, presets.
type Settings struct{ *core }

// resolve computes the configuration in force for the current project.
func (c *core) resolve() (config.Resolved, error) {
	return config.Resolve(c.home, c.currentProject(), c.getenv)
}

// resolvePinned is the configuration in force in project p with two
// providers and models chosen over the environment's, the second over
// the first; layers makes them of the face's pin. It is resolved again
// only when a file it is read from changed (resolvedMemo).
func (c *core) resolvePinned(p store.Project, layers func(pin) [2]pin) (config.Resolved, error) {
	c.mu.RLock()
	pn := c.pin
	c.mu.RUnlock()
	ls := layers(pn)
	env := c.getenv
	for _, l := range ls {
		env = config.Choose(env, l.provider, l.model)
	}
	return c.resolved.get(resolvedKey{dir: p.Path, layers: ls}, config.Sources(c.home, p.Path, env), func() (config.Resolved, error) {
		return config.Resolve(c.home, p.Path, env)
	})
}

// Warnings are the problems with the files the configuration of
// the project folder dir is read from (a project's .env not read, as it
// is a link out of the project or a FIFO), one sentence each; each is
// logged.
func (st *Settings) Warnings(dir string) []string {
	r, err := config.Resolve(st.home, dir, st.getenv)
	if err != nil {
		return nil // the run says why it cannot start
	}
	for _, s := range r.Warnings {
		st.log.Warn("settings", "warning", s)
	}
	return r.Warnings
}

// Get returns the effective settings and where each value comes from.
func (st *Settings) Get() (wire.SettingsView, error) {
	r, err := st.resolve()
	if err != nil {
		return wire.SettingsView{}, err
	}
	v := settingsView(r)
	v.Presets = st.presetViews(r)
	if dir := st.currentProject(); dir != "" {
		if p, err := st.store.Projects.ByPath(context.Background(), dir); err == nil {
			if v.CheckpointUsageBytes, err = st.ledger.Usage(context.Background(), p.ID); err != nil {
				st.log.Warn("measuring checkpoint space", "err", err)
			}
		}
	}
	return v, nil
}

func settingsView(r config.Resolved) wire.SettingsView {
	key := r.MaskedKey()
	v := wire.SettingsView{
		Provider:              r.Provider.Value,
		Model:                 r.Model.Value,
		BaseURL:               r.BaseURL.Value,
		HasKey:                r.APIKey.Value != "",
		KeyHint:               key.Value,
		ApprovalMode:          wire.ApprovalMode(r.ApprovalMode.Value),
		ThinkingBudget:        r.Thinking.Value,
		BudgetTokens:          int(r.BudgetTokens),
		BudgetUSD:             r.BudgetUSD,
		CheckpointRetentionMB: r.Settings.RetentionMB(),
		MCPTimeoutSeconds:     r.Settings.MCPTimeout(),
		HelperConcurrency:     r.Settings.Helpers(),
		JobsPerSession:        r.Settings.Jobs(),
		Notifications:         !r.Settings.NotificationsOff,
		Source:                map[string]wire.ValueSource{},
		SourceFrom:            map[string]string{},
		Warnings:              append([]string{}, r.Warnings...),
		ModelOverrides:        modelOverrides(r.Settings.Models),
	}
	for name, src := range map[string]config.Source{
		"provider": r.Provider.Source, "model": r.Model.Source, "baseUrl": r.BaseURL.Source,
		"apiKey": key.Source, "approvalMode": r.ApprovalMode.Source, "thinkingBudget": r.Thinking.Source,
	} {
		v.Source[name] = wire.ValueSource(src)
	}
	for name, from := range map[string]string{
		"provider": r.Provider.From, "model": r.Model.From, "baseUrl": r.BaseURL.From,
		"apiKey": key.From, "approvalMode": r.ApprovalMode.From, "thinkingBudget": r.Thinking.From,
	} {
		if from != "" {
			v.SourceFrom[name] = from
		}
	}
	v.NeedsOnboarding = !v.HasKey && needsKey(v.Provider, v.BaseURL)
	return v
}

// presetViews lists the presets with where each one's key is: its
// environment variable, or saved in Settings (keys are kept per preset).
func (st *Settings) presetViews(r config.Resolved) []wire.Preset {
	keys, err := config.LoadKeys(st.home)
	if err != nil {
		st.log.Warn("reading saved keys", "err", err) // already a warning of r
	}
	var out []wire.Preset
	for _, p := range llm.Presets() {
		v := wire.Preset{ID: p.ID, Name: p.Name, Provider: wire.Protocol(p.Provider), BaseURL: p.BaseURL, NeedsKey: p.NeedsKey, Model: p.Model,
			Local: p.Local, KeyEnv: p.KeyEnv, SavedBaseURL: r.Settings.BaseURLs[p.ID]}
		key := ""
		switch {
		case p.KeyEnv != "" && strings.TrimSpace(st.getenv(p.KeyEnv)) != "":
			v.KeySource, key = wire.KeySource(config.SourceEnv), strings.TrimSpace(st.getenv(p.KeyEnv))
		case keys[p.ID] != "":
			v.KeySource, key = wire.KeySource(config.SourceSettings), keys[p.ID]
		}
		if p.ID == r.Provider.Value && r.APIKey.Value != "" { // TS_AGENT_API_KEY in a .env too
			v.KeySource, key = wire.KeySource(r.APIKey.Source), r.APIKey.Value
		}
		v.KeyHint = secret.Mask(key)
		out = append(out, v)
	}
	return out
}

// needsKey says whether a server wants an API key: Anthropic and the
// hosted OpenAI-compatible services do, local servers do not.
func needsKey(provider, baseURL string) bool {
	if p, ok := llm.LookupPreset(provider); ok && p.ID != llm.ProviderOpenAI {
		return p.NeedsKey
	}
	if p, _ := llm.LookupPreset(llm.ProviderOpenAI); strings.TrimRight(p.BaseURL, "/") == strings.TrimRight(baseURL, "/") {
		return true
	}
	for _, p := range llm.Presets() {
		if strings.TrimRight(p.BaseURL, "/") == strings.TrimRight(baseURL, "/") {
			return p.NeedsKey
		}
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return true
	}
	host := u.Hostname()
	return host != "localhost" && host != "127.0.0.1" && host != "::1"
}

// Save validates and stores the settings form, then returns what is
// now in force.
func (st *Settings) Save(in wire.SettingsInput) (wire.SettingsView, error) {
	if err := config.CheckForm(in); err != nil {
		return wire.SettingsView{}, err
	}
	cur, err := config.LoadSettings(st.home)
	if err != nil && !isCorrupt(err) {
		return wire.SettingsView{}, err
	}
	cur.Apply(in)
	if err := config.SaveSettings(st.home, cur); err != nil {
		return wire.SettingsView{}, err
	}
	st.mcp.SetCallTimeout(time.Duration(cur.MCPTimeout()) * time.Second)
	st.svc.Ledger.enforceRetention(st.currentProject())
	switch {
	case in.ClearKey:
		err = config.SaveKey(st.home, in.Provider, "")
	case strings.TrimSpace(in.APIKey) != "":
		err = config.SaveKey(st.home, in.Provider, strings.TrimSpace(in.APIKey))
	}
	if err != nil {
		return wire.SettingsView{}, err
	}
	return st.Get()
}

func isCorrupt(err error) bool {
	_, ok := err.(*config.CorruptFileError)
	return ok
}

// Models asks a server for its models. Empty arguments fall back to
// the configuration in force; another provider (a preset id) uses its own
// key (its environment variable, else the one saved for it). The error is
// one sentence saying whether the server could not be reached or refused
// the key, and what to do.
func (st *Settings) Models(ctx context.Context, provider, baseURL, apiKey string) ([]string, error) {
	r, err := st.resolve()
	if err != nil {
		return nil, err
	}
	cfg := r.LLM()
	if provider != "" && provider != cfg.Provider {
		cfg.Provider, cfg.BaseURL, cfg.APIKey = provider, "", ""
		if p, ok := llm.LookupPreset(provider); ok && p.KeyEnv != "" {
			cfg.APIKey = strings.TrimSpace(st.getenv(p.KeyEnv))
		}
		if keys, err := config.LoadKeys(st.home); err == nil && cfg.APIKey == "" {
			cfg.APIKey = keys[provider]
		}
	}
	if baseURL != "" {
		cfg.BaseURL = baseURL
	}
	if apiKey != "" {
		cfg.APIKey = apiKey
	}
	models, err := llm.ListModels(ctx, cfg)
	if err != nil {
		msg := config.Redact(r.Redact(err.Error()), cfg.APIKey)
		st.log.Warn("listing models", "provider", cfg.Provider, "base", cfg.BaseURL, "err", msg)
		return nil, fmt.Errorf("%s", msg)
	}
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = m.ID
	}
	sort.Strings(out)
	return out, nil
}

// NotificationsOn reads the Settings switch of desktop notifications.
func (st *Settings) NotificationsOn() bool {
	s, err := config.LoadSettings(st.home)
	if err != nil && !isCorrupt(err) {
		st.log.Warn("reading the settings for notifications", "err", err)
	}
	return !s.NotificationsOff
}
