package childenv

import (
	"slices"
	"strings"
	"testing"

	"pilot/backend/internal/keyvars"
	"pilot/backend/llm"
)

// Every preset's key variable and Pilot's own are key variables, read from
// the presets (a preset added later is covered without touching this list).
func TestKeyVarsCoverEveryPreset(t *testing.T) {
	t.Parallel()
	vars := keyVars()
	for _, p := range llm.Presets() {
		if p.KeyEnv != "" && !slices.Contains(vars, p.KeyEnv) {
			t.Errorf("preset %s: %s is not a key variable", p.ID, p.KeyEnv)
		}
	}
	for _, name := range []string{"TS_AGENT_API_KEY", "GROQ_API_KEY", "groq_api_key", "VLLM_API_KEY", "LLAMA_API_KEY"} {
		if !KeyVar(name) {
			t.Errorf("KeyVar(%s) = false", name)
		}
	}
	if !slices.Equal(vars, keyvars.All()) {
		t.Errorf("the tests' key variables %v are not childenv's %v", keyvars.All(), vars)
	}
	if KeyVar("PATH") || KeyVar("GITHUB_TOKEN") {
		t.Error("PATH or GITHUB_TOKEN taken for a provider key variable")
	}
}

func TestEnvAllowlist(t *testing.T) {
	t.Parallel()
	Hold("held-saved-key-0123456789")
	base := []string{
		"PATH=/usr/bin:/bin", "HOME=/home/ada", "LANG=C.UTF-8", "LC_ALL=C", "TERM=xterm", "XDG_CACHE_HOME=/c",
		"GOPATH=/go", "GOFLAGS=-mod=mod", "GO111MODULE=on", "CGO_ENABLED=0", "CC=gcc", "CFLAGS=-O2",
		"CARGO_HOME=/cargo", "RUSTUP_HOME=/rustup", "NVM_DIR=/nvm", "NODE_OPTIONS=--max-old-space-size=4096",
		"VIRTUAL_ENV=/venv", "PYTHONPATH=/py", "JAVA_HOME=/jdk", "HTTPS_PROXY=http://proxy:3128", "no_proxy=localhost",
		"PWD=/where/pilot/runs",
	}
	for _, v := range keyVars() {
		base = append(base, v+"=key-of-"+strings.ToLower(v)+"-0123456789")
	}
	dropped := []string{
		// Not on the allowlist.
		"PILOT_HOME=/p", "ANTHROPIC_BASE_URL=http://x", "OPENAI_BASE_URL=http://x", "AWS_REGION=eu",
		"GOOGLE_APPLICATION_CREDENTIALS=/creds.json", "SSH_AUTH_SOCK=/run/ssh", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus",
		"GPG_AGENT_INFO=/run/gpg", "GIT_ASKPASS=/askpass", "BUNDLE_GITHUB__COM=user:tok", "DOCKER_HOST=unix:///var/run/docker.sock",
		"KEEP=1", "AWS_PROFILE=prod", "KUBECONFIG=/k", "GNUPGHOME=/g",
		// Allowed families, secret names.
		"CARGO_REGISTRY_TOKEN=t", "NPM_CONFIG__AUTHTOKEN=t", "NPM_CONFIG__AUTH=dXNlcjpwYXNz", "PIP_PASSWORD=p",
		"POETRY_PYPI_TOKEN_PYPI=t", "UV_PUBLISH_TOKEN=t", "PYTHON_SECRET=s", "GOPRIVATE_KEY=k", "NODE_AUTH_TOKEN=t",
		"XDG_API_KEY=k", "LC_PASSWORD=p", "CMAKE_ACCESS_KEY_ID=k", "XDG_SESSION_COOKIE=c",
		// Allowed names, a proxy with a password, a held key in a value.
		"HTTP_PROXY=http://ada:hunter2@proxy:3128", "ALL_PROXY=socks5://u:p@proxy",
		"PIP_INDEX_URL=https://user:pw@pypi.example/simple",
		"EDITOR=vim --key held-saved-key-0123456789", "LESS=key-of-groq_api_key-0123456789",
	}
	got := Env(append(slices.Clone(base), dropped...), "/project", map[string]string{"OWN": "1", "GITHUB_TOKEN": "users-own", "PATH": "/own/bin"})
	has := func(kv string) bool { return slices.Contains(got, kv) }
	for _, kv := range dropped {
		if has(kv) {
			t.Errorf("%s passed", kv)
		}
	}
	for _, v := range keyVars() {
		for _, kv := range got {
			if strings.HasPrefix(strings.ToUpper(kv), v+"=") || strings.Contains(kv, "key-of-") {
				t.Errorf("%s reached the child as %s", v, kv)
			}
		}
	}
	for _, kv := range []string{"HOME=/home/ada", "LANG=C.UTF-8", "LC_ALL=C", "TERM=xterm", "XDG_CACHE_HOME=/c", "GOPATH=/go",
		"GOFLAGS=-mod=mod", "GO111MODULE=on", "CGO_ENABLED=0", "CC=gcc", "CFLAGS=-O2", "CARGO_HOME=/cargo",
		"RUSTUP_HOME=/rustup", "NVM_DIR=/nvm", "NODE_OPTIONS=--max-old-space-size=4096", "VIRTUAL_ENV=/venv",
		"PYTHONPATH=/py", "JAVA_HOME=/jdk", "HTTPS_PROXY=http://proxy:3128", "no_proxy=localhost",
		"PWD=/project", "OWN=1", "GITHUB_TOKEN=users-own", "PATH=/own/bin"} {
		if !has(kv) {
			t.Errorf("%s missing from %q", kv, got)
		}
	}
	if slices.Contains(got, "PATH=/usr/bin:/bin") || slices.Contains(got, "PWD=/where/pilot/runs") {
		t.Errorf("base PATH or Pilot's PWD kept beside the child's own: %q", got)
	}
	// The configuration's own value holding a key is dropped too.
	if own := Env(nil, "", map[string]string{"X": "Bearer held-saved-key-0123456789"}); len(own) != 0 {
		t.Errorf("own value holding a held key passed: %q", own)
	}
}

func TestSecretName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "github_token": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true,
		"DB_PASSWORD": true, "MYPASSWORDFILE": true, "STRIPE_API_KEY": true, "SSH_KEY": true, "NPM_CONFIG__AUTH": true,
		"GITHUB_PAT": true, "SIGNING_KEY_ID": true, "SLACK_BOT_TOKEN": true, "GOOGLE_APPLICATION_CREDENTIALS": true,
		"OPENAI_APIKEY": true, "SESSION_COOKIE": true, "GPG_PASSPHRASE": true, "TOKEN": true,
		"PATH": false, "HOME": false, "KEYBOARD": false, "MONKEY": false, "TOKENIZERS_PARALLELISM": false,
		"GOAUTH": false, "XAUTHORITY": false, "LANG": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestHoldsKey(t *testing.T) {
	t.Parallel()
	Hold("short", "", "ollama", "lm-studio", "held-for-holdskey-abcdef")
	cases := []struct {
		s    string
		base []string
		want bool
	}{
		{"Bearer held-for-holdskey-abcdef", nil, true},
		{"nothing here", nil, false},
		{"a short word", nil, false},         // shorter than MinKeyLen: matched by name only
		{"/home/ada/ollama/bin", nil, false}, // a local server's placeholder key empties no PATH
		{"x=from-base-env-key-999", []string{"MISTRAL_API_KEY=from-base-env-key-999"}, true},
		{"x=from-base-env-key-999", []string{"NOT_A_PRESET=from-base-env-key-999"}, false},
	}
	for _, c := range cases {
		if got := HoldsKey(c.s, c.base); got != c.want {
			t.Errorf("HoldsKey(%q, %q) = %v, want %v", c.s, c.base, got, c.want)
		}
	}
}

func TestAllowedGoFamily(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"GOPATH": true, "GO111MODULE": true, "GOAMD64": true, "GOOGLE_CLOUD_PROJECT": false, "GO": false, "GO_X": false} {
		if got := Allowed(name); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", name, got, want)
		}
	}
}

// BenchmarkEnv is the cost of one child's environment from a desktop
// session's (about 60 variables), with keys held.
func BenchmarkEnv(b *testing.B) {
	Hold("bench-held-key-0123456789abcdef")
	base := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/ada", "LANG=en_US.UTF-8", "ANTHROPIC_API_KEY=sk-ant-0123456789abcdef"}
	for i := range 56 {
		base = append(base, "DESKTOP_VAR_"+strings.Repeat("X", i%7)+"="+strings.Repeat("v", 40))
	}
	own := map[string]string{"OWN": "1"}
	b.ReportAllocs()
	for b.Loop() {
		Env(base, "/project", own)
	}
}
