package childenv

import (
	"slices"
	"strings"
	"sync"

	"pilot/backend/llm"
)

// ownKeyVars are Pilot's own key variables that no preset names: the
// Anthropic key of a project's .env, as the original REPL read it.
var ownKeyVars = []string{"TS_AGENT_API_KEY"}

// allowed are the exact names a child may get (upper case).
var allowed = setOf(
	// The session and the shell.
	"PATH", "HOME", "USER", "LOGNAME", "USERNAME", "SHELL", "HOSTNAME", "TMPDIR", "TMP", "TEMP", "TZ",
	// Language and terminal, so output is readable and tools pick the user's editor.
	"LANG", "LANGUAGE", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
	"COLUMNS", "LINES", "LS_COLORS", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESS", "MANPATH", "INFOPATH",
	"CI", "DEBIAN_FRONTEND",
	// The desktop: a command may open a window (a test browser).
	"DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY",
	// The network: a proxy (passed only without a password in it) and CA bundles.
	"HTTP_PROXY", "HTTPS_PROXY", "FTP_PROXY", "ALL_PROXY", "NO_PROXY",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO",
	// git's identity and editor (never GIT_ASKPASS or GIT_CONFIG_*: they carry credentials).
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_EDITOR", "GIT_PAGER",
	// C and C++ builds.
	"CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "RANLIB", "STRIP", "OBJCOPY", "MAKE", "MAKEFLAGS", "GCCGO",
	"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "ASFLAGS",
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH",
	"DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "SDKROOT", "MACOSX_DEPLOYMENT_TARGET",
	"PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR",
	// Node.
	"NVM_DIR", "NVM_BIN", "NVM_INC", "PNPM_HOME", "BUN_INSTALL", "DENO_DIR", "DENO_INSTALL", "VOLTA_HOME", "COREPACK_HOME",
	// Python.
	"VIRTUAL_ENV", "VIRTUAL_ENV_PROMPT", "PIPX_HOME", "PIPX_BIN_DIR",
	// Java and the JVM.
	"JAVA_HOME", "JDK_HOME", "JRE_HOME", "JAVA_TOOL_OPTIONS", "JAVA_OPTS", "_JAVA_OPTIONS", "SBT_OPTS",
	"MAVEN_HOME", "M2_HOME", "MAVEN_OPTS", "GRADLE_HOME", "GRADLE_USER_HOME", "GRADLE_OPTS",
	"ANDROID_HOME", "ANDROID_SDK_ROOT", "ANDROID_NDK_HOME", "KOTLIN_HOME", "SDKMAN_DIR",
	// Ruby (BUNDLE_<HOST> holds credentials: only these).
	"GEM_HOME", "GEM_PATH", "RBENV_ROOT", "RBENV_VERSION", "RUBYOPT", "RUBYLIB",
	"BUNDLE_GEMFILE", "BUNDLE_PATH", "BUNDLE_WITHOUT", "BUNDLE_APP_CONFIG",
	// .NET, Perl, Lua, version managers, Nix, Homebrew.
	"DOTNET_ROOT", "DOTNET_CLI_TELEMETRY_OPTOUT", "DOTNET_NOLOGO", "NUGET_PACKAGES",
	"PERL5LIB", "PERL_LOCAL_LIB_ROOT", "PERL_MB_OPT", "PERL_MM_OPT", "LUA_PATH", "LUA_CPATH",
	"ASDF_DIR", "ASDF_DATA_DIR", "NIX_PATH", "NIX_PROFILES", "NIX_SSL_CERT_FILE",
	"HOMEBREW_PREFIX", "HOMEBREW_CELLAR", "HOMEBREW_REPOSITORY",
	// Windows: without SYSTEMROOT and the profile folders most programs fail to start.
	"SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "OS", "USERPROFILE", "HOMEDRIVE", "HOMEPATH",
	"APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432",
	"COMMONPROGRAMFILES", "COMMONPROGRAMFILES(X86)", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE",
	// macOS: the text encoding Core Foundation programs read.
	"__CF_USER_TEXT_ENCODING",
)

// allowedPrefixes are families whose every name is a setting (upper case).
// Secret names under them (CARGO_REGISTRY_TOKEN, NPM_CONFIG__AUTH...) are
// dropped by SecretName.
var allowedPrefixes = []string{
	"LC_", "XDG_", "CGO_", "CMAKE_", "CCACHE_",
	"CARGO_", "RUSTUP_", "RUST",
	"NODE_", "NPM_CONFIG_", "YARN_",
	"PYTHON", "PYENV_", "PIP_", "CONDA_", "POETRY_", "UV_",
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Allowed reports whether a variable named name may pass from Pilot's
// environment to a child, before secrets are removed (case-insensitive).
func Allowed(name string) bool {
	n := strings.ToUpper(name)
	return allowed[n] || goVar(n) || slices.ContainsFunc(allowedPrefixes, func(p string) bool { return strings.HasPrefix(n, p) })
}

// goVar: Go's own settings are GO followed by letters and digits (GOPATH,
// GOFLAGS, GO111MODULE); GOOGLE_APPLICATION_CREDENTIALS is not one.
func goVar(n string) bool {
	if !strings.HasPrefix(n, "GO") || len(n) == 2 {
		return false
	}
	return strings.IndexFunc(n[2:], func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) < 0
}

// secretParts are what a secret's name holds; secretEnds how it ends.
var (
	secretParts = []string{"SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "APIKEY", "API_KEY",
		"ACCESS_KEY", "PRIVATE_KEY", "_TOKEN_", "_KEY_", "COOKIE"}
	secretEnds = []string{"_KEY", "TOKEN", "_AUTH", "_PAT"}
)

// SecretName reports whether name looks like it holds a secret:
// *_KEY, *TOKEN, *_AUTH, *_PAT, or holding SECRET, PASSWORD, PASSWD,
// PASSPHRASE, CREDENTIAL, APIKEY, API_KEY, ACCESS_KEY, PRIVATE_KEY,
// _TOKEN_, _KEY_ or COOKIE, in any case.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, p := range secretParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	for _, e := range secretEnds {
		if strings.HasSuffix(n, e) {
			return true
		}
	}
	return false
}

// keyVars are read from the presets once: the table does not change.
var keyVars = sync.OnceValue(func() []string {
	vars := slices.Clone(ownKeyVars)
	for _, p := range llm.Presets() {
		if p.KeyEnv != "" {
			vars = append(vars, p.KeyEnv)
		}
	}
	slices.Sort(vars)
	return slices.Compact(vars)
})

// KeyVar reports whether name is a key variable of a provider preset or
// Pilot's own (case-insensitive).
func KeyVar(name string) bool {
	return slices.ContainsFunc(keyVars(), func(v string) bool { return strings.EqualFold(v, name) })
}
