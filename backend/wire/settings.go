package wire

// ImportedRules are the permission rules read from the settings files of
// a project (Claude Code's and Pilot's settings.json), beside the
// project's own stored rules, and the entries Pilot could not use.
type ImportedRules struct {
	Rules   []ImportedRule `json:"rules"`
	Ignored []IgnoredRule  `json:"ignored"`
}

// ImportedRule is one Pilot rule made from an entry of a settings file.
// Applies is false for an allow rule of a project's file the user has not
// trusted as it is now (NotApplied says so in a sentence).
type ImportedRule struct {
	Tool       string     `json:"tool"`
	Pattern    string     `json:"pattern"`
	Effect     RuleEffect `json:"effect"`
	Entry      string     `json:"entry"` // as the file writes it: Bash(npm run test:*)
	File       string     `json:"file"`
	Scope      string     `json:"scope"` // user, pilot-user, project, local, pilot-project
	Applies    bool       `json:"applies"`
	NotApplied string     `json:"notApplied"`
}

// IgnoredRule is an entry (or key) of a settings file Pilot does not use,
// with the sentence that says why. Entry is "" for a file that could not
// be read.
type IgnoredRule struct {
	Entry  string `json:"entry"`
	Effect string `json:"effect"`
	File   string `json:"file"`
	Scope  string `json:"scope"`
	Reason string `json:"reason"`
}
