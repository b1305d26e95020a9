package policy

import (
	"strings"
	"unicode"
)

// MSBuild properties on the command line (dotnet build -p:Name=Value,
// -property:, /p:, several as -p:A=1;B=2) are judged by each property's
// name and value, not by a substring of the switch: UseRazorBuildServer
// holds "user" but names no user, while CustomBeforeMicrosoftCommonTargets
// imports a targets file (code) and PostBuildEvent is a shell command the
// build runs. A name whose words (UseRazorBuildServer: use, razor, build,
// server) include one that names code to run or import, a place to fetch
// from, credentials or where the build writes asks; a value that is a URL
// asks; a value that looks like a path is read, so one outside the
// workspace asks as any read does.

// msbuildRiskyWords are the words of a property name that run, import or
// fetch code, hold credentials or move the build's output, matched as
// whole words (and plurals), besides riskyOptionWords.
var msbuildRiskyWords = wordSet{words: []string{"event", "command", "exec", "tool", "compiler", "import", "props",
	"feed", "hook", "interpreter", "secret", "credential", "certificate"}}

// msbuildPlainProperties are everyday properties whose name holds one of
// those words in another sense (the framework a build targets, the kind
// of output).
var msbuildPlainProperties = wordSet{words: []string{"targetframework", "targetframeworks", "targetplatformversion",
	"targetplatformidentifier", "targetos", "targetarch", "outputtype"}}

// msbuildPropertySwitch reads -p:/-property:/--property:/-p: props, in
// any case: ok says v is one, props is what follows the colon.
func msbuildPropertySwitch(v string) (props string, ok bool) {
	t := strings.TrimLeft(v, "-/")
	if len(t) == len(v) {
		return "", false
	}
	for _, pre := range []string{"p:", "property:"} {
		if len(t) > len(pre) && strings.EqualFold(t[:len(pre)], pre) {
			return t[len(pre):], true
		}
	}
	return "", false
}

// msbuildPropsRisky judges the Name=Value list of one property switch: the
// paths its values name, and whether one property asks.
func msbuildPropsRisky(props string) (reads []string, risky bool) {
	for _, piece := range strings.Split(props, ";") {
		if strings.TrimSpace(piece) == "" {
			continue
		}
		name, val, has := strings.Cut(piece, "=")
		if !has || strings.TrimSpace(name) == "" {
			return nil, true
		}
		for _, w := range camelWords(name) {
			if riskyPropertyWord(w) && !msbuildPlainProperties.has(strings.ToLower(strings.TrimSpace(name))) {
				return nil, true
			}
		}
		val = strings.Trim(val, `"'`)
		if strings.Contains(val, "://") {
			return nil, true
		}
		if looksLikePath(val) {
			reads = append(reads, val)
		}
	}
	return reads, false
}

// riskyPropertyWord: w (lower case) or its singular is a word of
// msbuildRiskyWords or riskyOptionWords.
func riskyPropertyWord(w string) bool {
	for _, s := range []string{w, strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
		if msbuildRiskyWords.has(s) || contains(riskyOptionWords, s) {
			return true
		}
	}
	return false
}

// camelWords splits a property name into its lower-case words: at a lower
// to upper change (UseRazor), before the last capital of a run followed
// by a lower one (MSBuild: ms, build), at digits and at _ . - separators.
func camelWords(name string) []string {
	rs := []rune(name)
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '_' || r == '.' || r == '-' || unicode.IsSpace(r):
			flush(i)
			start = i + 1
		case i > start && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
			i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}
