// Package childenv makes the environment of every program Pilot starts: MCP
// stdio servers and run_bash commands today, hooks and language servers
// later. It is the one place that decides which of Pilot's variables a child
// may see, so that no key Pilot holds ever reaches one.
//
// # An allowlist, then secrets removed
//
// A child gets a variable from Pilot's environment only when its name is on
// an allowlist of what programs need to work, build and test code (see
// names.go for the list and why each family is there):
//
//   - the session: PATH, HOME, USER, LOGNAME, SHELL, TMPDIR, TZ, HOSTNAME;
//   - language and terminal: LANG, LANGUAGE, LC_*, TERM, COLORTERM, NO_COLOR,
//     COLUMNS, LINES, EDITOR, VISUAL, PAGER, LESS;
//   - the desktop: DISPLAY, XAUTHORITY, WAYLAND_DISPLAY, XDG_*;
//   - the network: HTTP(S)_PROXY, ALL_PROXY, NO_PROXY (lower case too), and
//     the CA bundle variables (SSL_CERT_FILE...), so builds behind a proxy
//     still download;
//   - toolchains: Go (GO* without "_", CGO_*), C and C++ (CC, CXX, CFLAGS,
//     LDFLAGS, PKG_CONFIG_PATH, CMAKE_*...), Rust (CARGO_*, RUSTUP_*, RUST*),
//     Node (NVM_*, NODE_*, NPM_CONFIG_*, PNPM_HOME, YARN_*...), Python
//     (VIRTUAL_ENV, PYENV_*, PYTHON*, PIP_*, CONDA_*, POETRY_*, UV_*), Java
//     (JAVA_HOME, MAVEN_*, GRADLE_*...), Ruby, .NET, Perl, Nix and Homebrew;
//   - Windows' and macOS's own (SYSTEMROOT, USERPROFILE, APPDATA...).
//     A family is a prefix only where every name under it is a setting; where
//     a prefix also names credentials (BUNDLE_<HOST>, GIT_ASKPASS,
//     GOOGLE_APPLICATION_CREDENTIALS) only the exact names are listed.
//
// On top of the allowlist, whatever passes it is dropped when
//
//   - its name looks like a secret (SecretName, case-insensitive): ending in
//     KEY after "_" (*_KEY, *_API_KEY), TOKEN or _AUTH or _PAT, holding
//     _TOKEN_, _KEY_, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
//     APIKEY, ACCESS_KEY, PRIVATE_KEY or COOKIE;
//   - it is the key variable of a provider preset (read from llm.Presets,
//     never copied) or Pilot's own (TS_AGENT_API_KEY);
//   - its value contains a key Pilot holds: one passed to Hold (the saved
//     keys and the key in use are, when config reads them), or the value of
//     any key variable in Pilot's own environment. Keys shorter than
//     MinKeyLen are matched by name only, so a toy key such as "x" cannot
//     empty PATH;
//   - its value is a URL with a password in it (http://user:pass@proxy).
//
// # Decisions
//
//   - SSH_AUTH_SOCK and GPG_AGENT_INFO are not passed: the agent socket
//     signs as the user for every host its keys open, without the user
//     seeing it, which is a key in all but name. A command that pushes over
//     SSH with an agent-held key fails; keys in ~/.ssh still work.
//   - DBUS_SESSION_BUS_ADDRESS is not passed: the session bus reaches the
//     keyring (org.freedesktop.secrets) and systemd --user, which runs
//     processes outside the command's process group. This is a hint, not a
//     wall: a program can still find the bus at $XDG_RUNTIME_DIR/bus. Files
//     and sockets are for the OS sandbox to close, not for the environment.
//   - Cloud and cluster settings (AWS_*, GOOGLE_*, AZURE_*, KUBECONFIG,
//     DOCKER_HOST) are not passed: they point a command at the user's
//     accounts. A command that needs one is given it by the user (in the
//     command, or in an MCP server's "env").
//   - A proxy variable passes unless its URL carries a password.
//   - HOME passes, so ~/.ssh, ~/.aws/credentials and the like stay
//     readable by a child: the environment is not the wall for files, the
//     OS sandbox is.
//   - PWD is set to the child's own folder (exec.Cmd only does that with a
//     nil Env), never copied from Pilot's.
//   - The variables a configuration gives a server ("env" of an MCP server)
//     are added as written: they are the user's own, so a GITHUB_TOKEN the
//     user wrote in PILOT_HOME/mcp.json reaches that server. A value that
//     contains a key Pilot holds is dropped even there (the MCP package
//     refuses to start such a server first, saying why).
//   - ${VAR} in an MCP server's configuration is the MCP package's to
//     refuse (KeyVar in every file, SecretName in a project's .mcp.json): a
//     file from a repository carries no authority over the user's secrets,
//     the user's own PILOT_HOME/mcp.json does.
package childenv
