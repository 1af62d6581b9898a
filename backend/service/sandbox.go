package service

import (
	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/confine"
	"pilot/backend/wire"
)

// sandboxOptions completes the agent's sandbox options: PILOT_HOME is
// hidden, and the extra hidden paths are read from Settings when a
// session's sandbox is made.
func sandboxOptions(o agent.Sandbox, home string) agent.Sandbox {
	if o.PilotHome == "" {
		o.PilotHome = home
	}
	if o.Hidden == nil {
		o.Hidden = func() []string {
			s, _ := config.LoadSettings(home) // a corrupt file is reported by GetSettings
			return s.SandboxHidden
		}
	}
	return o
}

// SandboxStatus reports whether commands can run in the OS sandbox here
// (probed again now, so Settings shows the truth after an install), why
// not, and the extra paths hidden from them.
func (w *Service) SandboxStatus() (wire.SandboxStatus, error) {
	s, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		return wire.SandboxStatus{}, err
	}
	var st confine.Status
	if w.probe != nil {
		st = w.probe()
	} else {
		st = confine.ProbeNow()
	}
	hidden := s.SandboxHidden
	if hidden == nil {
		hidden = []string{}
	}
	return wire.SandboxStatus{Ready: st.Ready, Why: st.Why, Bwrap: st.Bwrap, BwrapVersion: st.BwrapVersion,
		UserNS: st.UserNS, LandlockABI: st.LandlockABI, Hidden: hidden}, nil
}

// SetSandboxHidden validates and saves the extra paths the sandbox hides
// (absolute or ~/); sessions whose sandbox has not started yet use them.
func (w *Service) SetSandboxHidden(paths []string) (wire.SandboxStatus, error) {
	clean, err := config.CleanSandboxHidden(paths)
	if err != nil {
		return wire.SandboxStatus{}, err
	}
	cur, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		return wire.SandboxStatus{}, err
	}
	cur.SandboxHidden = clean
	if err := config.SaveSettings(w.home, cur); err != nil {
		return wire.SandboxStatus{}, err
	}
	return w.SandboxStatus()
}
