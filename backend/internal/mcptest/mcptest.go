// Package mcptest is an MCP server for tests, built with the official SDK:
// a test binary calls MaybeServe first thing in TestMain, and Config
// returns the configuration that starts that binary again as the server.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaybeServe serves the test server on stdin/stdout and exits when the
// process was started by Config (PILOT_MCP_TEST_SERVER=1); otherwise it
// returns at once.
func MaybeServe() {
	if os.Getenv("PILOT_MCP_TEST_SERVER") == "1" {
		Serve()
	}
}

// Serve serves the test server (New) on stdin/stdout until the client
// closes them, then exits. PILOT_MCP_TEST_HANG_START=1 makes it hang
// before it answers.
func Serve() {
	if os.Getenv("PILOT_MCP_TEST_HANG_START") == "1" {
		time.Sleep(time.Hour)
	}
	fmt.Fprintln(os.Stderr, "test server up")
	if err := New().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "test server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Command is the command and arguments that start this test binary again;
// with PILOT_MCP_TEST_SERVER=1 in its environment (and MaybeServe in
// TestMain) it is the server. PILOT_MCP_TEST_HANG_START=1 makes it hang
// before it answers; PILOT_MCP_TEST_CANCELLED=FILE makes "hang" write FILE
// when it is cancelled, and PILOT_MCP_TEST_STARTED=FILE when it starts.
func Command() (string, []string, error) {
	exe, err := os.Executable()
	return exe, []string{"-test.run=^$"}, err
}

type echoIn struct {
	Text string `json:"text" jsonschema:"what to echo"`
}

type none struct{}

// TinyPNG is the image the "image" tool returns.
var TinyPNG = []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// AskMessage is the message of the "ask" tool's form: a link in HTML and
// in Markdown, which a client must show as text.
const AskMessage = `Who are you? <a href="https://example.com/">click me</a> [or me](https://example.com/)`

// AskSchema is the "ask" tool's form: a field of every kind the
// specification allows (MCP 2025-11-25, elicitation: string formats and
// lengths, titled enum, integer bounds, multi-select, boolean, defaults).
var AskSchema = json.RawMessage(`{"type":"object","properties":{
 "name":{"type":"string","title":"Your name","description":"As people call you.","minLength":1,"maxLength":50},
 "email":{"type":"string","title":"Email","format":"email"},
 "age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},
 "color":{"type":"string","title":"Colour","oneOf":[{"const":"red","title":"Red"},{"const":"blue","title":"Blue"}],"default":"blue"},
 "tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b","c"]}},
 "subscribe":{"type":"boolean","title":"Subscribe","default":false}},
 "required":["name","email"]}`)

// defaultsSchema is the requested schema of the conformance suite's
// elicitation-sep1034-client-defaults scenario, as it sends it
// (modelcontextprotocol/conformance, src/scenarios/client/
// elicitation-defaults.ts): every field optional, with a default.
var defaultsSchema = json.RawMessage(`{"type":"object","properties":{
 "name":{"type":"string","description":"User name","default":"John Doe"},
 "age":{"type":"integer","description":"User age","default":30},
 "score":{"type":"number","description":"User score","default":95.5},
 "status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
 "verified":{"type":"boolean","description":"Verification status","default":true}},
 "required":[]}`)

// elicit asks the client to fill schema and tells the answer as the
// tool's result ("elicited: ACTION CONTENT"), and writes the action to the
// file PILOT_MCP_TEST_ELICITED names. A client of the protocol of
// 2026-07-28 is asked in the call's result (inputRequests, SEP-2322) and
// answers with the call made again; an older one gets elicitation/create
// while the call runs (MCP 2025-11-25), whose answer the tool waits for
// even when the call is cancelled, so a test sees the cancel.
func elicit(ctx context.Context, req *sdk.CallToolRequest, message string, schema json.RawMessage) (*sdk.CallToolResult, any, error) {
	params := &sdk.ElicitParams{Message: message, RequestedSchema: schema}
	res, ok := req.Params.InputResponses["form"].(*sdk.ElicitResult)
	var err error
	switch ip := req.Session.InitializeParams(); {
	case ok:
	case ip != nil && ip.ProtocolVersion >= "2026-07-28":
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"form": params}}, nil, nil
	default:
		res, err = req.Session.Elicit(context.WithoutCancel(ctx), params)
	}
	action := "error"
	if err == nil {
		action = res.Action
	}
	if f := os.Getenv("PILOT_MCP_TEST_ELICITED"); f != "" {
		_ = os.WriteFile(f, []byte(action), 0o644)
	}
	if err != nil {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "elicitation failed: " + err.Error()}}}, nil, nil
	}
	content, _ := json.Marshal(res.Content)
	return text("elicited: " + res.Action + " " + string(content)), nil, nil
}

// New returns the server: echo, env, image, fail (isError), crash (exits
// mid-call), hang (until cancelled), grow (adds the tool "extra" and so
// sends notifications/tools/list_changed), ask and ask_defaults (elicit a
// form and echo the answer). PILOT_MCP_TEST_PROTOCOL=VERSION makes it
// speak that protocol version only.
func New() *sdk.Server {
	var opt *sdk.ServerOptions
	if v := os.Getenv("PILOT_MCP_TEST_PROTOCOL"); v != "" {
		opt = &sdk.ServerOptions{SupportedProtocolVersions: []string{v}}
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "pilot-test", Version: "1"}, opt)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text."}, func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		env := os.Getenv("PILOT_MCP_TEST_SHOW")
		return text("echo: " + in.Text + env), nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "The environment."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		env := fmt.Sprint(os.Environ())
		if b, err := os.ReadFile("/proc/self/environ"); err == nil { // the kernel's record of what the process was started with
			env += "\n/proc/self/environ: " + strings.ReplaceAll(string(b), "\x00", " ")
		}
		return text(env), nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "image", Description: "A picture."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a dot"}, &sdk.ImageContent{MIMEType: "image/png", Data: TinyPNG}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such record"}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exits mid-call."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		os.Exit(3)
		return nil, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answers."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		if f := os.Getenv("PILOT_MCP_TEST_STARTED"); f != "" {
			_ = os.WriteFile(f, []byte("started"), 0o644)
		}
		<-ctx.Done()
		if f := os.Getenv("PILOT_MCP_TEST_CANCELLED"); f != "" {
			_ = os.WriteFile(f, []byte("cancelled"), 0o644)
		}
		return nil, nil, ctx.Err()
	})
	sdk.AddTool(s, &sdk.Tool{Name: "grow", Description: "Adds the tool 'extra'."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		sdk.AddTool(s, &sdk.Tool{Name: "extra", Description: "Added later."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			return text("extra"), nil, nil
		})
		return text("grown"), nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "ask", Description: "Asks the user who they are; echoes the answer."}, func(ctx context.Context, req *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		return elicit(ctx, req, AskMessage, AskSchema)
	})
	sdk.AddTool(s, &sdk.Tool{Name: "ask_defaults", Description: "Asks for a form whose fields all have defaults; echoes the answer."}, func(ctx context.Context, req *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
		return elicit(ctx, req, "Test client default value handling - please accept with defaults", defaultsSchema)
	})
	s.AddResource(&sdk.Resource{URI: "test://notes/todo", Name: "todo", MIMEType: "text/plain"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "- write the docs"}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a file.", Arguments: []*sdk.PromptArgument{{Name: "file"}, {Name: "focus"}}},
		func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := req.Params.Arguments
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Review " + a["file"] + " for " + a["focus"] + "."}}}}, nil
		})
	return s
}
