package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strconv"
	"testing"
)

// TestMain runs the test binary as a fake language server when
// PILOT_LSP_FAKE says so (the one fake of these tests: a server that
// starts and then never answers, which no real one does on purpose).
func TestMain(m *testing.M) {
	if os.Getenv("PILOT_LSP_FAKE") == "silent" {
		silentServer(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// silentServer answers initialize and nothing else, ever: no
// diagnostics, no answer to shutdown.
func silentServer(in io.Reader, out io.Writer) {
	r := textproto.NewReader(bufio.NewReader(in))
	for {
		h, err := r.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r.R, body); err != nil {
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != "initialize" {
			continue
		}
		reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, msg.ID)
		fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(reply), reply)
	}
}
