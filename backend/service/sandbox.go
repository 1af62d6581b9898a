package service

import (
	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/sandbox"
	"pilot/backend/wire"
)

// Sandbox is the sandbox's status and the user's lists for it.
type Sandbox struct{ *core }

// sandboxOptions completes the agent's sandbox options: PILOT_HOME is
// hidden, the user's home is the face's HOME (the one Settings › Setup
// reads the user's instruction files from), and the extra hidden paths
// and the allowed sockets are read from Settings when a session's
// sandbox is made (sockets a hand-edited file gives badly allow none,
// logged).
func (c *core) sandboxOptions(o agent.Sandbox) agent.Sandbox {
	home, log := c.home, c.log
	if o.Home == "" {
		o.Home = c.userHome()
	}
	if o.PilotHome == "" {
		o.PilotHome = home
	}
	if o.Hidden == nil {
		o.Hidden = func() []string {
			s, _ := config.LoadSettings(home) // a corrupt file is reported by Settings.Get
			return s.SandboxHidden
		}
	}
	if o.Sockets == nil {
		o.Sockets = func() []string {
			s, _ := config.LoadSettings(home)
			clean, err := config.CleanSandboxSockets(s.SandboxSockets)
			if err != nil {
				log.Warn("the sandbox's allowed sockets in the settings are unusable: none is allowed (correct them in Settings › Sandbox)", "err", err)
				return nil
			}
			return clean
		}
	}
	return o
}

// Status reports whether commands can run in the OS sandbox here
// (probed again now, so Settings shows the truth after an install), why
// not, and the extra paths hidden from them.
func (sb *Sandbox) Status() (wire.SandboxStatus, error) {
	s, err := config.LoadSettings(sb.home)
	if err != nil && !isCorrupt(err) {
		return wire.SandboxStatus{}, err
	}
	var st sandbox.Status
	if sb.probe != nil {
		st = sb.probe()
	} else {
		st = sandbox.ProbeNow()
	}
	hidden, sockets := s.SandboxHidden, s.SandboxSockets
	if hidden == nil {
		hidden = []string{}
	}
	if sockets == nil {
		sockets = []string{}
	}
	return wire.SandboxStatus{Ready: st.Ready, Why: st.Why, Bwrap: st.Bwrap, BwrapVersion: st.BwrapVersion,
		UserNS: st.UserNS, LandlockABI: st.LandlockABI, Hidden: hidden, Sockets: sockets}, nil
}

// SetHidden validates and saves the extra paths the sandbox hides
// (absolute or ~/); sessions whose sandbox has not started yet use them.
func (sb *Sandbox) SetHidden(paths []string) (wire.SandboxStatus, error) {
	return sb.save(paths, config.CleanSandboxHidden, func(s *config.Settings, clean []string) { s.SandboxHidden = clean })
}

// SetSockets validates and saves the host's unix sockets commands
// may connect to (absolute or ~/; a folder allows the sockets under it);
// sessions whose sandbox has not started yet use them.
func (sb *Sandbox) SetSockets(paths []string) (wire.SandboxStatus, error) {
	return sb.save(paths, config.CleanSandboxSockets, func(s *config.Settings, clean []string) { s.SandboxSockets = clean })
}

// save validates one of the sandbox's lists (clean) and saves it in the
// settings (set); the status is read again.
func (sb *Sandbox) save(paths []string, clean func([]string) ([]string, error), set func(*config.Settings, []string)) (wire.SandboxStatus, error) {
	list, err := clean(paths)
	if err != nil {
		return wire.SandboxStatus{}, err
	}
	cur, err := config.LoadSettings(sb.home)
	if err != nil && !isCorrupt(err) {
		return wire.SandboxStatus{}, err
	}
	set(&cur, list)
	if err := config.SaveSettings(sb.home, cur); err != nil {
		return wire.SandboxStatus{}, err
	}
	return sb.Status()
}
