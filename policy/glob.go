package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Reads through a glob: "cat .env*", "cat .[e]nv", "cat */.env" and
// "cat src/*" (with src/k a link to a key) read what the pattern expands
// to, not the directory it starts in.

// secretCandidates are names a pattern aimed at secrets would match.
var secretCandidates = []string{".env", ".env.local", ".env.production", ".netrc", ".git-credentials",
	".pgpass", ".npmrc", ".pypirc", "id_rsa", "id_ed25519", "id_ecdsa", "credentials", "credentials.json",
	"secrets.yaml", "secrets.json", "server.pem", "server.key", "cert.p12", "terraform.tfstate",
	"service-account.json", "kubeconfig"}

// ordinaryNames are names a pattern for everyday files would match; a
// pattern that matches one of them is too broad to count as aimed at
// secrets (the files it really matches are still judged).
var ordinaryNames = []string{"main.go", "README.md", "a", "x.txt", "Makefile", "src", "index.js", "lib.rs",
	"test_x.py", "package.json", "go.mod", "Cargo.toml", "notes"}

// maxGlobMatches bounds how many existing files one pattern is judged on.
const maxGlobMatches = 4096

// globRead judges a read of the pattern tail below dir (the pattern's
// literal directory, as written): every secret name the pattern is aimed
// at, and every existing workspace file it matches.
func (x *cmdCtx) globRead(dir, tail string) {
	tail = strings.TrimRight(tail, "/")
	if tail == "" {
		return
	}
	last := path.Base(tail)
	dirs := x.resolve(word{val: dir, static: true})
	for _, d := range dirs {
		// The last component names the files; a glob in an earlier one
		// (*/.env) leaves the name itself to judge.
		probe := func(name string) {
			p := d + "/" + path.Join(path.Dir(tail), name)
			x.addF(x.c.judgePath(p, false))
		}
		if !hasGlobMeta(last) {
			probe(last)
		} else if aimedAtSecrets(last) {
			for _, cand := range secretCandidates {
				if globMatches(last, cand) {
					probe(cand)
					break
				}
			}
		}
		if within(d, x.c.ws) {
			x.globExisting(d, tail, last)
		}
	}
}

// globExisting judges the files that exist now and match tail below d.
func (x *cmdCtx) globExisting(d, tail, last string) {
	// What cannot be checked file by file is asked about, never passed:
	// a link to a secret may hide among the files not looked at.
	if strings.Count(tail, "/") > 4 || strings.Contains(tail, "**") && strings.Count(tail, "**") > 1 {
		x.add(Ask, RulePathUnknown, "a pattern too deep to check file by file")
		return
	}
	matches, err := filepath.Glob(filepath.Join(d, tail))
	if err != nil {
		x.add(Ask, RulePathUnknown, "a pattern the policy cannot expand")
		return
	}
	if len(matches) > maxGlobMatches {
		x.add(Ask, RulePathUnknown, fmt.Sprintf("a pattern matching more than %d files, too many to check one by one", maxGlobMatches))
		return
	}
	for _, m := range matches {
		if strings.HasPrefix(filepath.Base(m), ".") && !strings.HasPrefix(last, ".") {
			continue // the shell does not expand * to a dot file
		}
		x.addF(x.c.judgePath(x.c.canon(m), false))
	}
}

// aimedAtSecrets reports whether a name pattern matches a secret name and
// no ordinary one.
func aimedAtSecrets(pat string) bool {
	hit := false
	for _, cand := range secretCandidates {
		if globMatches(pat, cand) {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	for _, n := range ordinaryNames {
		if globMatches(pat, n) {
			return false
		}
	}
	return true
}

// globMatches matches one name the way the shell expands a pattern: a
// leading dot must be written in the pattern.
func globMatches(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, err := path.Match(pat, name)
	return err == nil && ok
}

func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }
