// Package fakellm is a scripted fake LLM server for the agent-loop and
// end-to-end tests. It speaks both wire formats Pilot uses:
//
//	POST /v1/messages             Anthropic Messages API, streamed (SSE)
//	POST /v1/chat/completions     OpenAI chat completions, streamed (also /chat/completions)
//	GET  /v1/models               model list read by both clients (also /models)
//	GET  /_fakellm/requests       the recorded requests as JSON (for other processes)
//	POST /_fakellm/script         replace the script (body: a script) and forget requests
//
// Answers are always streamed, whatever "stream" says.
//
// # From Go tests
//
//	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
//		{ToolCalls: []fakellm.ToolCall{{Name: "read_file", Input: json.RawMessage(`{"path":"go.mod"}`)}}},
//		{Text: "It is module pilot.", When: &fakellm.When{ToolResultContains: "module pilot"}},
//	}})
//	defer srv.Close()
//	// Anthropic: ANTHROPIC_BASE_URL=srv.URL(); OpenAI: OPENAI_BASE_URL=srv.OpenAIBaseURL()
//	... run the agent ...
//	reqs := srv.Requests() // decoded bodies, redacted headers, LastUserText, ToolResults, Turn
//
// # As a program
//
//	go run ./backend/internal/fakellm/cmd/fakellm -script script.json -addr 127.0.0.1:0
//
// prints "listening on http://127.0.0.1:PORT" as its first line on stdout
// and serves until SIGINT or SIGTERM.
//
// # Choosing a turn
//
// Each model call is answered by the first turn, in script order, that is
// not used up and whose "when" (and, in Go, Match) accepts the request. A
// served turn is used up unless "repeat" is true. With no "when" anywhere,
// turns are served in order. When no turn is left the server answers 400
// with a message naming the request, which the client shows as an error.
//
// A request whose last user text starts with TitlePrefix (Pilot naming a
// session after its first turn) is answered "About <first words of the
// user's message>" without using a turn, and is counted by TitleRequests
// instead of being logged, so a script is the same whether the client asks
// for titles or not.
//
// # Script format (JSON)
//
//	{
//	  "apiKey": "sk-test",              // optional: required x-api-key / Bearer key, else 401
//	  "models": ["claude-sonnet-4-5"],  // optional: GET /v1/models
//	  "contextLengths": {"claude-sonnet-4-5": 200000},  // optional: their context_length in the list (OpenRouter's shape)
//	  "turns": [
//	    {
//	      "when": {                     // optional; all given conditions must hold
//	        "lastUserContains": "hello",    // text of the last user message
//	        "toolResultContains": "module", // some tool result of the last user message
//	        "hasToolResult": true,
//	        "model": "claude-sonnet-4-5"
//	      },
//	      "repeat": false,
//	      "thinking": "Let me look.",   // thinking block (OpenAI: reasoning_content)
//	      "signature": "sig",           // default "fakellm-signature"
//	      "text": "Hello!",             // streamed word by word
//	      "streamTokens": 0,            // N more generated words, as fast as possible
//	      "toolCalls": [
//	        {"id": "toolu_1", "name": "read_file", "input": {"path": "go.mod"}},
//	        {"name": "run_bash", "rawInput": "{\"command\": "}  // sent verbatim: invalid JSON
//	      ],
//	      "usage": {"inputTokens": 10, "outputTokens": 5, "cacheReadTokens": 0, "cacheWriteTokens": 0},
//	      "stopReason": "end_turn",     // default tool_use with tool calls, else end_turn
//	      "fixture": "stream.sse",      // replay this file byte for byte instead (relative to the script)
//	      "raw": "data: ...",           // or these bytes
//	      "fault": {
//	        "status": 429,              // answer this status instead of a stream
//	        "body": "",                 // default: an error body in the provider's format
//	        "retryAfter": "2",          // retry-after header
//	        "delayMs": 0,               // pause before each event
//	        "cutAfterEvents": 0,        // abort the connection after N events
//	        "stallAfterEvents": 0,      // after N events send nothing, keeping the connection open
//	        "errorAfterEvents": 0,      // send an error event after N events, then end
//	        "errorType": "overloaded_error",
//	        "errorMessage": "Overloaded"
//	      }
//	    }
//	  ]
//	}
//
// A status fault uses up its turn, so "429 then an answer" is two turns.
// cutAfterEvents, stallAfterEvents and errorAfterEvents count the events of
// the generated stream (message_start and ping included for Anthropic, the
// role chunk for OpenAI) and do nothing if the answer has fewer events. Without "usage",
// tokens are estimated at four bytes each.
package fakellm
