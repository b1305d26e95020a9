package policy

import "strings"

// Environment prefixes of everyday tools judged by their value (issue 32
// item 2, polcorp6 class E2): what the tool does with the value decides.
//
//   - GOPROXY=off turns module downloads off: the build uses only what is
//     already there. A proxy URL or direct (another source of code) is
//     judged by the name, as before.
//   - DENO_DIR names deno's cache of compiled modules; a directory under
//     the current one holds only what deno itself fetches and compiles
//     for this project. Outside it (/tmp/x, ~, ..) a cache someone else
//     filled would be trusted: judged by the name.
//   - DJANGO_SETTINGS_MODULE names a module of the project's import path
//     (config.settings.test): a dotted name, never a path.
//   - JEST_JUNIT_OUTPUT_DIR moves where the junit reporter writes, under
//     the current directory only (outputDirVar's rule).
//   - COREPACK_ENABLE_DOWNLOAD_PROMPT, PHP_CS_FIXER_IGNORE_ENV and the
//     like are switches: a plain 0/1/true/false value.
func toolEnv(m map[string]envValueJudge) {
	m["GOPROXY"] = func(v string) bool { return v == "off" }
	for _, n := range []string{"DENO_DIR", "JEST_JUNIT_OUTPUT_DIR"} {
		m[n] = relativeSubdir
	}
	m["DJANGO_SETTINGS_MODULE"] = dottedModule
	for _, n := range []string{"COREPACK_ENABLE_DOWNLOAD_PROMPT", "COREPACK_ENABLE_STRICT", "PHP_CS_FIXER_IGNORE_ENV",
		"JEST_JUNIT_ADD_FILE_ATTRIBUTE", "CI", "FORCE_COLOR", "NO_COLOR"} {
		if m[n] == nil {
			m[n] = switchValue
		}
	}
}

// relativeSubdir: a plain relative path below the current directory.
func relativeSubdir(v string) bool {
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "-") {
		return false
	}
	for _, part := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, "./"), "/"), "/") {
		if part == ".." || part == "" || !plainToken(part) {
			return false
		}
	}
	return true
}

// dottedModule: a Python module name (letters, digits, _ and dots).
func dottedModule(v string) bool {
	if v == "" || strings.HasPrefix(v, ".") || strings.HasSuffix(v, ".") || strings.Contains(v, "..") {
		return false
	}
	for _, c := range v {
		if !(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// switchValue: an on/off value.
func switchValue(v string) bool {
	switch strings.ToLower(v) {
	case "0", "1", "true", "false", "yes", "no", "on", "off":
		return true
	}
	return false
}

// makeVarValue: a make command-line variable (make test GOFLAGS=-race,
// make CC=clang) whose name the environment table judges by value and
// whose value is everyday there. It overrides the makefile's variable of
// that name, which the makefile hands to the same tool as the environment
// prefix would: the value is judged as that prefix is. A value the table
// does not know, or a name it does not hold (SHELL=, GO=), asks as before.
func makeVarValue(name, assign string, static bool) bool {
	lhs, val, _ := strings.Cut(assign, "=")
	if !static || lhs != name {
		return false // CC+=, CC:=, CC?= and CC!= (runs its value as shell) ask
	}
	_, ok := envValueFinding(name, val)
	return ok
}
