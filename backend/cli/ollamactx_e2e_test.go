package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeOllama is an Ollama server as its documentation answers (/api/show
// and /api/ps of docs/openapi.yaml: gemma4, loaded with a 4096-token
// context) whose chat endpoint cuts a longer conversation as Ollama does:
// the system prompt and the newest messages that fit, the rest dropped
// without a word. Its answer says how many messages it kept. It answers
// only once heard is closed (the test saw the notice; a minute without it
// fails the request).
func fakeOllama(t *testing.T, heard <-chan struct{}) *httptest.Server {
	t.Helper()
	fixture := func(name string) []byte {
		b, err := os.ReadFile("../llm/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	show, ps := fixture("ollama_show_openapi.json"), fixture("ollama_ps_openapi.json")
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(show) })
	mux.HandleFunc("GET /api/ps", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(ps) })
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"gemma4","object":"model"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case <-heard:
		case <-r.Context().Done():
			return
		case <-time.After(time.Minute): // no notice came: fail now rather than at the test's deadline
			http.Error(w, "the request came, and no notice before it", http.StatusBadRequest)
			return
		}
		budget, kept := 4096*4, 0 // characters: about four to a token
		for _, m := range req.Messages {
			if m.Role == "system" {
				kept++ // kept whole
				budget -= len(m.Content)
			}
		}
		for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role != "system"; i-- {
			if budget -= len(req.Messages[i].Content); budget < 0 {
				break
			}
			kept++
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v) }
		text, _ := json.Marshal(fmt.Sprintf("I read %d of %d messages.", kept, len(req.Messages)))
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gemma4","choices":[{"index":0,"delta":{"role":"assistant","content":` + string(text) + `}}]}`)
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gemma4","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":4096,"completion_tokens":8,"total_tokens":4104}}`)
		chunk("[DONE]")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestOllamaLoadedContextNotice: a conversation longer than the context
// Ollama has the model loaded with is told to the user, naming the model,
// the loaded context and how to raise it, before the request is sent
// (the fake server answers only once the notice was printed); the answer
// shows the server indeed cut the conversation.
func TestOllamaLoadedContextNotice(t *testing.T) {
	t.Parallel()
	heard := make(chan struct{})
	srv := fakeOllama(t, heard)
	home := t.TempDir()
	dir := tempProject(t, map[string]string{"README.md": "# a project\n"})
	settings := fmt.Sprintf(`{"baseUrls":{"ollama":%q}}`, srv.URL+"/v1")
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pilotBinary(t), "-p", strings.Repeat("Here is a long note about the project. ", 800)+"What did I say?", "--project", dir, "--model", "gemma4")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + home, "PILOT_PROVIDER=ollama"}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var notice string
	var rest strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if notice == "" && strings.Contains(line, "loaded with") {
			notice = line
			close(heard)
			continue
		}
		rest.WriteString(line + "\n")
	}
	if notice == "" {
		close(heard)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\nstderr: %s", err, rest.String())
	}
	for _, want := range []string{"Ollama has gemma4 loaded with a 4096-token context", "OLLAMA_CONTEXT_LENGTH=", "cut its start"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the notice lacks %q: %q\nstderr: %s", want, notice, rest.String())
		}
	}
	if !strings.Contains(stdout.String(), "I read 1 of 2 messages.") {
		t.Errorf("the fake server did not cut as Ollama does: %q", stdout.String())
	}
}
