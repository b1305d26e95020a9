package policy

import "strings"

// Environment variables set on a command line: which ones run code, which
// are inert, which ask.

// envVarFinding judges NAME=value, either as a prefix of a command (which
// puts it in that command's environment) or standing alone.
func envVarFinding(name, value string, standalone bool) finding {
	if name == "" {
		return finding{Ask, RuleEnvUnknownVar, "an assignment without a name"}
	}
	up := strings.ToUpper(name)
	// bare is the name without leading underscores: _PYTHON_SYSCONFIGDATA_NAME
	// is read by Python as PYTHONPATH is, so a family is judged on both.
	bare := strings.TrimLeft(up, "_")
	switch {
	case (up == "PAGER" || up == "GIT_PAGER" || up == "MANPAGER" || up == "SYSTEMD_PAGER") && (value == "" || value == "cat"):
		return finding{Allow, RuleShellAssign, "turns a pager off"}
	case editorVars.has(up) && noopEditor(value): // gitforms.go
		return finding{Allow, RuleShellAssign, name + " turns the editor off: nothing opens and the file stays as written"}
	case execVars.has(up), strings.HasPrefix(bare, "LD_"), strings.HasPrefix(bare, "DYLD_"),
		strings.HasPrefix(up, "BASH_FUNC_"), strings.HasPrefix(up, "NPM_CONFIG_"),
		strings.HasPrefix(up, "YARN_"), strings.HasPrefix(up, "PNPM_"),
		strings.HasPrefix(up, "CARGO_TARGET_") && strings.HasSuffix(up, "_RUNNER"),
		strings.HasPrefix(up, "GIT_") && !benignGitVars.has(up):
		return finding{Deny, RuleEnvExecVar, name + " changes which program or code runs"}
	case benignVars.has(up), strings.HasPrefix(up, "LC_"), benignGitVars.has(up):
		return finding{Allow, RuleShellAssign, "sets " + name}
	case !standalone && outputDirVar(up, value): // envoutdir.go
		return finding{Allow, RuleShellAssign, name + " puts the build's outputs in " + quoteShort(value) + ", a directory under this one, as its default already is"}
	case askVars.has(up), strings.HasPrefix(bare, "PYTHON"), strings.HasPrefix(bare, "PERL"),
		strings.HasPrefix(bare, "RUBY"), strings.HasPrefix(bare, "NODE_"), strings.HasPrefix(up, "CARGO_"),
		strings.HasPrefix(up, "RUSTC"), strings.HasPrefix(up, "GO"), strings.HasPrefix(up, "CGO_"),
		strings.HasPrefix(up, "JAVA"), strings.HasPrefix(up, "DOCKER_"), strings.HasPrefix(up, "AWS_"),
		strings.HasSuffix(up, "_PROXY"), strings.HasSuffix(up, "PATH"), strings.HasSuffix(up, "_OPTS"),
		strings.HasSuffix(up, "_OPTIONS"), strings.HasSuffix(up, "FLAGS"), strings.HasPrefix(up, "SSL_"),
		strings.HasPrefix(up, "BASH"), strings.HasPrefix(up, "HIST"):
		return finding{Ask, RuleEnvUnknownVar, name + " may change what a program runs or reads"}
	case standalone:
		return finding{Allow, RuleShellAssign, "assigns a shell variable"}
	case inertSetting(up, value):
		return finding{Allow, RuleShellAssign, "sets " + name + " to a plain value that runs no code and names no file or place"}
	}
	return finding{Ask, RuleEnvUnknownVar, name + " is not a variable the policy knows"}
}

var execVars = wordSet{words: []string{"PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PS1", "PS0",
	"PROMPT_COMMAND", "NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE", "PYTHONPATH",
	"PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONEXECUTABLE", "PYTHONUSERBASE",
	"PERL5LIB", "PERL5OPT", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "GOFLAGS", "GOROOT",
	"GOTOOLCHAIN", "GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOINSECURE", "GONOPROXY",
	"GOENV", "CC", "CXX", "LD", "AR", "CPP", "AS", "FC", "MAKEFLAGS", "MFLAGS", "MAKE", "MAKEFILES",
	"SHELL", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE",
	"BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS", "TERMINAL", "RUSTC_WRAPPER", "RUSTC",
	"RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTC",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "GCONV_PATH", "IFS", "CDPATH",
	"FPATH", "BASH_LOADABLES_PATH", "EXECIGNORE", "GLOBIGNORE", "BASH_XTRACEFD", "INPUTRC",
	"HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "NPM_CONFIG_USERCONFIG", "COMPOSER_HOME",
	"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "UV_INDEX_URL", "PYTEST_PLUGINS",
	"PYTEST_ADDOPTS", "TERMINFO", "LOCPATH", "NLSPATH", "OPENSSL_CONF", "OPENSSL_ENGINES",
	"CGO_LDFLAGS", "CGO_CFLAGS", "CGO_CXXFLAGS", "RUSTFLAGS", "RUSTDOCFLAGS", "CARGO_ENCODED_RUSTFLAGS",
	"CARGO_HOME", "RUSTUP_TOOLCHAIN", "RUSTUP_HOME", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE",
	"MAVEN_OPTS", "GRADLE_OPTS", "GIT_EXEC_PATH", "TMUX", "LUA_PATH", "LUA_CPATH", "LUA_INIT",
	"R_PROFILE_USER", "R_ENVIRON_USER", "PHPRC", "PHP_INI_SCAN_DIR", "DENO_DIR", "BUN_INSTALL",
	"ELECTRON_RUN_AS_NODE", "PROMPT", "RPROMPT", "PROMPT_COMMAND", "TMPDIR", "MAKELEVEL"}}

var benignVars = wordSet{words: []string{"CI", "DEBUG", "VERBOSE", "LANG", "LANGUAGE", "TZ", "NO_COLOR",
	"FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS", "LINES", "CGO_ENABLED",
	"GOOS", "GOARCH", "GOARM", "GOAMD64", "GO386", "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG",
	"GOEXPERIMENT", "GO111MODULE", "GOTRACEBACK", "GOFIPS140", "RUST_BACKTRACE", "RUST_LOG",
	"RUST_TEST_THREADS", "RUST_MIN_STACK", "NODE_ENV", "CARGO_TERM_COLOR", "CARGO_INCREMENTAL",
	"CARGO_TERM_VERBOSE", "CARGO_BUILD_JOBS", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
	"PYTHONHASHSEED", "PYTHONFAULTHANDLER", "PYTHONUTF8", "PYTHONIOENCODING",
	"HUSKY", "SKIP", "TESTING", "TEST", "LOG_LEVEL", "LOGLEVEL", "NODE_NO_WARNINGS",
	"NEXT_TELEMETRY_DISABLED", "DOTNET_CLI_TELEMETRY_OPTOUT", "DISABLE_TELEMETRY", "UPDATE",
	"UPDATE_SNAPSHOTS", "SNAPSHOT_UPDATE", "GOLDEN_UPDATE", "RACE", "V", "Q", "DEBIAN_FRONTEND"}}

var benignGitVars = wordSet{words: []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT",
	"GIT_OPTIONAL_LOCKS", "GIT_LITERAL_PATHSPECS", "GIT_FLUSH"}}

var askVars = wordSet{words: []string{"USER", "LOGNAME", "MAIL", "EMAIL", "DISPLAY", "WAYLAND_DISPLAY", "KUBECONFIG",
	"XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "SSH_AUTH_SOCK",
	"GPG_AGENT_INFO", "GNUPGHOME", "NPM_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "OLDPWD", "PWD",
	"OPENOUT_ANY", "OPENIN_ANY"}} // kpathsea reads texmf.cnf's settings from the environment first: openout_any=a lets TeX write anywhere (textools.go)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
