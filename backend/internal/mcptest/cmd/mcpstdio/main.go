// Command mcpstdio is the test MCP server (mcptest.New, built with the
// official Go SDK) as a stdio server of its own, for tests of a real
// pilot binary that configure it as a user would, in .mcp.json: the
// Windows smoke test (.ci/windows/smoke.sh) builds it as an .exe and
// runs it under Wine.
//
//	go build -o mcpstdio ./backend/internal/mcptest/cmd/mcpstdio
package main

import "pilot/backend/internal/mcptest"

func main() { mcptest.Serve() }
