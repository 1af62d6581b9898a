package wire

import "encoding/json"

// Elicitation is an MCP server's request for input from the user
// (elicitation/create, form mode) that came while one of its tool calls
// ran: shown as a form on that call's card (Approval.Elicitation) and kept
// with the call, with the user's answer (ToolCall.Elicitations). Server is
// the name in the configuration; Message and every title, description and
// option are the server's text: outside input, shown as plain text.
type Elicitation struct {
	Server  string        `json:"server"`
	Message string        `json:"message"`
	Fields  []ElicitField `json:"fields"`
	// The answer, once given: Action, and the values sent with accept.
	Action  ElicitAction    `json:"action,omitempty"`
	Content json.RawMessage `json:"content,omitempty" ts_type:"Record<string, unknown>"`
	// Why says who answered other than the user: declined because no one
	// could be asked (a headless run's --elicit), or the defaults sent.
	Why string `json:"why,omitempty"`
}

// ElicitField is one field of an elicitation's form: a property of its
// requested schema, restricted by the specification to primitives.
type ElicitField struct {
	Name        string          `json:"name"`                  // the property's key in the content
	Title       string          `json:"title,omitempty"`       // the server's words for it
	Description string          `json:"description,omitempty"` // and more of them
	Type        ElicitFieldType `json:"type"`                  // the kind of value
	Required    bool            `json:"required,omitempty"`    // accept needs a value
	Format      string          `json:"format,omitempty"`      // of a string: email, uri, date, date-time ("": any text)
	MinLength   *int            `json:"minLength,omitempty"`   // a string's bounds, in characters
	MaxLength   *int            `json:"maxLength,omitempty"`
	Minimum     *float64        `json:"minimum,omitempty"` // a number's bounds
	Maximum     *float64        `json:"maximum,omitempty"`
	// Options of a choice (a string's enum or oneOf, an array's items),
	// with their titles; MinItems and MaxItems bound a multi-select.
	Options  []ElicitOption `json:"options,omitempty"`
	MinItems *int           `json:"minItems,omitempty"`
	MaxItems *int           `json:"maxItems,omitempty"`
	// Default is the schema's default value (SEP-1034), as JSON.
	Default json.RawMessage `json:"default,omitempty" ts_type:"unknown"`
}

// ElicitOption is one choice of a field: the value sent and its title.
type ElicitOption struct {
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
}

// ElicitationDecision is the user's answer to a pending elicitation
// (DecideElicitation): accept with the form's values, decline or cancel.
type ElicitationDecision struct {
	Action  ElicitAction    `json:"action"`
	Content json.RawMessage `json:"content,omitempty" ts_type:"Record<string, unknown>"`
	// Why is said when no one was asked (a headless run answers by its
	// --elicit); "" for the user's own answer.
	Why string `json:"why,omitempty"`
}
