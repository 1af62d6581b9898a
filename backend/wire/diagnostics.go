package wire

// Diagnostics: what the user's language servers say about the files a
// change touched, appended to the model's tool result and summed up on
// the card; Settings › Languages lists the servers.

// DiagnosticSeverity is one diagnostic's severity.
type DiagnosticSeverity string

// Diagnostic severities (LSP's 1-4).
const (
	SeverityError   DiagnosticSeverity = "error"
	SeverityWarning DiagnosticSeverity = "warning"
	SeverityInfo    DiagnosticSeverity = "info"
	SeverityHint    DiagnosticSeverity = "hint"
)

// Diagnostic is one message of a language server about a file.
type Diagnostic struct {
	Path     string             `json:"path"` // relative to the session's folder, '/'-separated
	Line     int                `json:"line"` // 1-based
	Col      int                `json:"col"`  // 1-based
	Severity DiagnosticSeverity `json:"severity"`
	Message  string             `json:"message"`
	Source   string             `json:"source,omitempty"` // e.g. "compiler", "ts"
}

// Diagnostics is what the language servers said after an applied change
// (ToolCall.Diagnostics): the counts, the items shown (capped), and a
// sentence when a server was missing or did not answer in time.
type Diagnostics struct {
	Errors   int          `json:"errors"`
	Warnings int          `json:"warnings"`
	Items    []Diagnostic `json:"items"`
	// Note says what the counts do not: "gopls did not answer within
	// 2 s", "no Go language server found (install gopls)".
	Note string `json:"note,omitempty"`
}

// LanguageServerState is where a language server stands (the
// language-server row's data-state).
type LanguageServerState string

// Language server states.
const (
	ServerMissing LanguageServerState = "missing" // not found on PATH
	ServerFound   LanguageServerState = "found"   // found, not running
	ServerRunning LanguageServerState = "running" // running for at least one folder
	ServerFailed  LanguageServerState = "failed"  // crashed or failed to start (LastError)
)

// LanguageServer is one language server Pilot knows (Settings ›
// Languages, pilot doctor).
type LanguageServer struct {
	Name      string              `json:"name"`      // e.g. "gopls"
	Languages []string            `json:"languages"` // e.g. ["Go"]
	Command   []string            `json:"command"`
	Path      string              `json:"path,omitempty"` // where it was found
	State     LanguageServerState `json:"state"`
	Version   string              `json:"version,omitempty"`
	LastError string              `json:"lastError,omitempty"`
	// Install says how to get a missing one ("go install golang.org/x/tools/gopls@latest").
	Install string `json:"install,omitempty"`
	// User: named in the user's settings, not one Pilot knows.
	User bool `json:"user,omitempty"`
}

// DiagnosticsPayload says which files' error counts changed in a session
// (the file tree's marks: fetch them again with ListDir).
type DiagnosticsPayload struct {
	Seq
	Paths []string `json:"paths"`
}

// LanguageServerConfig is a language server the user names in Settings ›
// Languages: its name, its command line (argv; the program found on
// PATH) and the files it serves (globs such as "**/*.zig").
type LanguageServerConfig struct {
	Name     string   `json:"name"`
	Command  []string `json:"command"`
	Patterns []string `json:"patterns"`
}
