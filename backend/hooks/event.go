package hooks

import "encoding/json"

// Event is a hook event, named as in Claude Code's settings.
type Event string

// The events Pilot fires.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SubagentStop     Event = "SubagentStop"
	SessionStart     Event = "SessionStart"
	SessionEnd       Event = "SessionEnd"
	Notification     Event = "Notification"
	PreCompact       Event = "PreCompact"
)

// Events lists every event Pilot fires, in the order the docs give them.
var Events = []Event{PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd, Notification, PreCompact}

// Input is what a hook reads on stdin: the fields common to every event
// and those of its event (empty ones are left out, as Claude Code does).
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  Event  `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`

	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`

	Prompt             string `json:"prompt,omitempty"`              // UserPromptSubmit
	StopHookActive     *bool  `json:"stop_hook_active,omitempty"`    // Stop, SubagentStop
	Message            string `json:"message,omitempty"`             // Notification
	NotificationType   string `json:"notification_type,omitempty"`   // Notification
	Trigger            string `json:"trigger,omitempty"`             // PreCompact: manual, auto
	CustomInstructions string `json:"custom_instructions,omitempty"` // PreCompact
	Source             string `json:"source,omitempty"`              // SessionStart: startup, resume, clear, compact
	Reason             string `json:"reason,omitempty"`              // SessionEnd
}

// subject is what a group's matcher is tested against for the event.
func (in Input) subject() string {
	switch in.HookEventName {
	case PreToolUse, PostToolUse:
		return in.ToolName
	case SessionStart:
		return in.Source
	case PreCompact:
		return in.Trigger
	case Notification:
		return in.NotificationType
	case SessionEnd:
		return in.Reason
	}
	return ""
}

// matches reports whether an event of this kind filters by matcher at all.
func (e Event) matches() bool {
	switch e {
	case UserPromptSubmit, Stop, SubagentStop:
		return false
	}
	return true
}
