package policy

import (
	"path"
	"regexp"
	"strings"
)

// find -exec CMD {} runs CMD on every path find selects, so CMD is judged
// with {} standing for the paths its name tests let through: find . -name
// .env -exec cat {} \; is cat ./…/.env, and a pattern a secret could match
// (-name '*.pem', -iname '*secret*', -name 'credentials*') stands for that
// secret, as cat ./*.pem does (find's -name, unlike the shell, lets * match
// a leading dot). A pattern that also matches everyday names (-name '*',
// -name '*.json') is broad, judged as the directory is, as a broad shell
// glob is (glob.go). A name under -not is still substituted: asking about
// a command that skips secrets is the cheaper mistake.

// findNamed are find's tests on a path's name or whole path.
var findNamed = wordSet{words: []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
	"-regex", "-iregex", "-lname", "-ilname"}}

// findExecPaths returns what {} stands for below the starting point start:
// a file found below it, the starting point itself (depth 0), and one path
// per name test of expr, named as the test would let it through.
func findExecPaths(start string, expr []word) []string {
	out := []string{start + "/glob-match", start}
	if everyFile(expr) {
		out = append(out, start+"/glob-match/.env") // findeveryfile.go
	}
	for i := 0; i+1 < len(expr); i++ {
		if !findNamed.has(expr[i].val) {
			continue
		}
		test, pat := expr[i].val, expr[i+1].val
		if name, ok := findNameFor(test, pat); ok {
			out = append(out, start+"/glob-match/"+name)
		}
		i++
	}
	return out
}

// findNameFor is a file name the test lets through: the name itself when
// the pattern is literal, else a secret name it matches, if any.
func findNameFor(test, pat string) (string, bool) {
	fold := strings.HasPrefix(test, "-i")
	switch test {
	case "-regex", "-iregex":
		src := "^(?:" + pat + ")$"
		if fold {
			src = "(?i)" + src
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return "", false
		}
		for _, n := range ordinaryNames {
			if re.MatchString("./" + n) {
				return "", false
			}
		}
		for _, cand := range secretCandidates {
			if re.MatchString("./" + cand) {
				return cand, true
			}
		}
		return "", false
	}
	base := pat[strings.LastIndexByte(pat, '/')+1:]
	if base == "" {
		return "", false
	}
	if !hasGlobMeta(base) {
		return base, true
	}
	match := func(name string) bool {
		p, n := base, name
		if fold {
			p, n = strings.ToLower(p), strings.ToLower(n)
		}
		ok, err := path.Match(p, n)
		return err == nil && ok
	}
	for _, n := range ordinaryNames {
		if match(n) {
			return "", false
		}
	}
	for _, cand := range secretCandidates {
		if match(cand) {
			return cand, true
		}
	}
	return "", false
}
