package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"time"
)

// Result is what a tool call produced.
//
// Read-only tools fill Output (the text for the model); IsError marks a
// mistake the model can fix, and Output then says what went wrong and what
// to call next. Change-making tools that accept the call return a Proposal
// and a short Output summary; nothing has changed on disk until Apply.
type Result struct {
	Output   string    `json:"output"`
	IsError  bool      `json:"isError"`
	Proposal *Proposal `json:"proposal,omitempty"`
	// Images are images the tool returns with Output (read_file of a PNG,
	// JPEG, GIF or WebP): the agent stores them and sends them to the
	// model as images.
	Images []Image `json:"-"`
	// Blocked are the sentences saying what the sandbox blocked, as the
	// command's output shows (also at the end of Output); the card shows
	// them.
	Blocked []string `json:"blocked,omitempty"`
	// SignIn names the MCP server that refused the call for want of a
	// sign-in (callMCP); the card offers one.
	SignIn string `json:"-"`
}

// Image is an image a tool returned.
type Image struct {
	MediaType string
	Data      []byte
}

// errorf returns a Result that teaches the model about its mistake.
func errorf(format string, args ...any) Result {
	return Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// mistake is an error that is the model's to fix: resolveErr turns it
// into the Result that says so.
type mistake string

func (m mistake) Error() string { return string(m) }

// mistakef returns a mistake with the text errorf would show.
func mistakef(format string, args ...any) error {
	return mistake(fmt.Sprintf(format, args...))
}

// Proposal is a change waiting for approval: file changes (write_file and
// patch_file carry one, multi_patch one per file), a command (run_bash), or
// an MCP tool call.
type Proposal struct {
	Tool    string       `json:"tool"`
	Note    string       `json:"note,omitempty"` // for the model, added to the Apply result (warnings)
	Files   []FileChange `json:"files,omitempty"`
	Command *Command     `json:"command,omitempty"`
	MCP     *MCPCall     `json:"mcp,omitempty"`
}

// FileChange is a proposed new content for one file.
type FileChange struct {
	Path       string      `json:"path"` // relative to the project root, '/'-separated
	Abs        string      `json:"abs"`  // absolute, symbolic links resolved
	OldContent string      `json:"oldContent"`
	NewContent string      `json:"newContent"`
	Existed    bool        `json:"existed"`
	Mode       fs.FileMode `json:"mode"`    // permission bits kept on apply (0644 for a new file)
	OldHash    string      `json:"oldHash"` // hashContent(OldContent) when Existed; Apply refuses if the file changed since
}

// Command is a proposed shell command.
type Command struct {
	Command string        `json:"command"`
	Dir     string        `json:"dir"`     // the project root
	Timeout time.Duration `json:"timeout"` // already clamped to MaxTimeout
	// Outside: the model asked to run it outside the sandbox (sandbox:
	// false), for Reason.
	Outside bool   `json:"outside,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Background: start it as a background job (run_bash background:
	// true); Timeout does not apply to it.
	Background bool `json:"background,omitempty"`
}

// hashContent identifies a file content for staleness checks.
func hashContent(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
