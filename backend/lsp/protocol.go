package lsp

import "encoding/json"

// The few Language Server Protocol messages Pilot uses, as the
// specification (3.17) names their fields. Only what is sent or read is
// here.

type initializeParams struct {
	ProcessID             int               `json:"processId"`
	ClientInfo            clientInfo        `json:"clientInfo"`
	RootURI               string            `json:"rootUri"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	Capabilities          json.RawMessage   `json:"capabilities"`
	InitializationOptions any               `json:"initializationOptions,omitempty"`
}

type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// clientCapabilities says what Pilot takes: pushed diagnostics with
// versions, full-text sync, progress, dynamic registration (acknowledged
// and ignored), and configuration requests (answered with nulls).
const clientCapabilities = `{
 "workspace": {"workspaceFolders": true, "configuration": true,
   "didChangeWatchedFiles": {"dynamicRegistration": true}},
 "textDocument": {
   "synchronization": {"didSave": true, "dynamicRegistration": false},
   "publishDiagnostics": {"versionSupport": true, "relatedInformation": false}
 },
 "window": {"workDoneProgress": true},
 "general": {"positionEncodings": ["utf-16"]}
}`

type initializeResult struct {
	ServerInfo *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type versionedDocument struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type documentID struct {
	URI string `json:"uri"`
}

type contentChange struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedDocument `json:"textDocument"`
	ContentChanges []contentChange   `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument documentID `json:"textDocument"`
}

type didCloseParams struct {
	TextDocument documentID `json:"textDocument"`
}

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type lspDiagnostic struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value struct {
		Kind    string `json:"kind"` // begin, report, end
		Title   string `json:"title"`
		Message string `json:"message"`
	} `json:"value"`
}

type configurationParams struct {
	Items []json.RawMessage `json:"items"`
}
