package wire

// MCPUpdated: an MCP server of the open project changed state or tools, or
// the configuration changed; the window reads MCPServers again. No seq.
const MCPUpdated = "mcp:updated"

// MCPUpdatedPayload names the project whose servers changed, and the
// sign-in that just ended, if that is the change.
type MCPUpdatedPayload struct {
	Project string          `json:"project"`
	SignIn  *MCPSignInEnded `json:"signIn,omitempty"`
}

// MCPSignInEnded is how a sign-in the window started (MCPSignIn) ended:
// signed in (Error ""), abandoned (Cancelled), or failed (Error says why
// and what to do, as the server's row does).
type MCPSignInEnded struct {
	Server    string `json:"server"`
	Error     string `json:"error"`
	Cancelled bool   `json:"cancelled"`
}

// MCPTool is one tool of a server.
type MCPTool struct {
	Name        string `json:"name"` // mcp__<server>__<tool>
	Tool        string `json:"tool"`
	Description string `json:"description"`
}

// MCPServer is a configured server, its configuration as written and its
// state: starting, ready, failed (Error says why), disabled.
type MCPServer struct {
	Name      string       `json:"name"`
	Scope     MCPScope     `json:"scope"`
	Transport MCPTransport `json:"transport"`
	Display   string       `json:"display"` // the command it runs, or its URL
	State     MCPState     `json:"state"`
	Error     string       `json:"error"`
	Tools     []MCPTool    `json:"tools"`
	Stderr    []string     `json:"stderr"`
	Restarts  int          `json:"restarts"`
	Command   string       `json:"command"`
	// Args, Env and Headers are null when the configuration has none.
	Args     []string          `json:"args" ts_type:"string[] | null"`
	Env      map[string]string `json:"env" ts_type:"Record<string, string> | null"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers" ts_type:"Record<string, string> | null"`
	Disabled bool              `json:"disabled"`
	// NeedsSignIn: an HTTP server answered that it needs a sign-in
	// (again: expired, revoked, or more scope); MCPSignIn starts one.
	// SignIn says the sign-in in words ("needs sign-in", "signed in
	// (renews ...)"); empty for a server that asked for none.
	NeedsSignIn bool   `json:"needsSignIn"`
	SignIn      string `json:"signIn"`
	// SignInWhy says why it needs one, in the words of `pilot mcp login`'s
	// sentence ("needs a sign-in", "no longer accepts its sign-in (expired
	// or revoked)", "could not renew its sign-in (...)"); "" when it does not.
	SignInWhy string `json:"signInWhy"`
}

// MCPSignInStarted is a sign-in under way: the browser was asked to open
// Address, the server's authorization page (shown for the user to open
// it if no browser came up); MCPUpdated follows when it ends, the server
// restarted with its new sign-in, or Error set on the server.
type MCPSignInStarted struct {
	Server  string `json:"server"`
	Address string `json:"address"`
}

// MCPServers is the servers of the open project, and why its
// configuration could not be read, if it could not.
type MCPServers struct {
	Project     string      `json:"project"`
	ConfigError string      `json:"configError"`
	Servers     []MCPServer `json:"servers"`
}

// MCPServerInput adds or replaces a server. Type is stdio, http or sse.
type MCPServerInput struct {
	Scope   MCPScope          `json:"scope"`
	Name    string            `json:"name"`
	Type    MCPTransport      `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// MCPTrustPrompt is what the trust prompt shows: the project's .mcp.json
// and the exact command (or URL) of each server it would start, and, in
// Sections, what each of the project's settings files not yet trusted
// would be let do (its allow rules, its hooks). Needed is false when
// there is nothing to trust. Token names everything shown: trusting with
// it (TrustProject) trusts exactly that, and fails when a file changed.
type MCPTrustPrompt struct {
	Needed   bool             `json:"needed"`
	Project  string           `json:"project"`
	Path     string           `json:"path"`
	Hash     string           `json:"hash"`
	Servers  []MCPTrustServer `json:"servers"`
	Changed  bool             `json:"changed"` // an earlier version was trusted
	Sections []TrustSection   `json:"sections"`
	Token    string           `json:"token"`
}

// TrustSection is one part of the trust prompt: one file and what it
// would be let do, a line each.
type TrustSection struct {
	Kind    TrustKind `json:"kind"`
	Path    string    `json:"path"`
	Scope   string    `json:"scope"` // the settings file's scope (project, local, pilot-project)
	Hash    string    `json:"hash"`
	Items   []string  `json:"items"`
	Changed bool      `json:"changed"` // an earlier version was trusted
}

// MCPTrustServer is one server of the trust prompt.
type MCPTrustServer struct {
	Name    string `json:"name"`
	Display string `json:"display"`
}

// MCPResource is a resource an MCP server offers, attachable with @ as
// "mcp:<server>:<uri>".
type MCPResource struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
}
