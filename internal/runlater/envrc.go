package runlater

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// direnv asks for a new `direnv allow` only when the .envrc itself
// changes; what it sources (`source_env FILE`, `source_env_if_exists`,
// `dotenv FILE`, `dotenv_if_exists`, `source_up FILE`, `. FILE`, `source
// FILE`) runs on the next cd with no question. So each file an .envrc
// names that way runs code later as much as the .envrc does, whatever
// its name (.envrc.* covers only the convention).

// maxEnvrc bounds how much of an .envrc is read.
const maxEnvrc = 256 << 10

// envrcLoaders are the direnv stdlib functions (and shell builtins) that
// run or load a file on cd, with the name each takes when given none.
var envrcLoaders = map[string]string{
	"source_env": "", "source_env_if_exists": "", "dotenv": ".env", "dotenv_if_exists": ".env",
	"source_up": ".envrc", "source_up_if_exists": ".envrc", "source": "", ".": "",
}

// EnvrcSources are the paths under root that the .envrc file envrc
// loads: named by a loader above, relative to the .envrc's directory (a
// directory stands for its .envrc; source_up's name is looked up in each
// directory above, up to root). Names with a variable or a glob are left
// out: they cannot be read without running the file. Paths that do not
// exist yet are in the answer too (a coder that makes one gets it run).
func EnvrcSources(root, envrc string) []string {
	f, err := os.Open(envrc)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxEnvrc))
	if err != nil {
		return nil
	}
	dir := filepath.Dir(envrc)
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if p != root && within(p, root) {
			out = append(out, p)
		}
	}
	for _, cmd := range envrcCommands(string(b)) {
		def, ok := envrcLoaders[cmd[0]]
		if !ok {
			continue
		}
		name := def
		if len(cmd) > 1 {
			name = cmd[1]
		}
		if name == "" || strings.ContainsAny(name, "$`*?[~") {
			continue
		}
		if strings.HasPrefix(cmd[0], "source_up") {
			for d := filepath.Dir(dir); within(d, root); d = filepath.Dir(d) {
				add(filepath.Join(d, name))
				if d == root {
					break
				}
			}
			continue
		}
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && strings.HasPrefix(cmd[0], "source_env") {
			p = filepath.Join(p, ".envrc")
		}
		add(p)
	}
	return out
}

// envrcCommands splits a shell file into simple commands (words, quotes
// taken off), at newlines, ;, &&, || and |; comments dropped. It reads
// what a person writes in an .envrc, not every shell construct.
func envrcCommands(s string) [][]string {
	var cmds [][]string
	var cur []string
	var word strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			cur = append(cur, word.String())
			word.Reset()
			inWord = false
		}
	}
	flushCmd := func() {
		flushWord()
		for len(cur) > 0 && (cur[0] == "if" || cur[0] == "then" || cur[0] == "else" || cur[0] == "do" || cur[0] == "!" || cur[0] == "{" || cur[0] == "(") {
			cur = cur[1:]
		}
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			flushCmd()
		case c == '\n' || c == ';' || c == '&' || c == '|':
			flushCmd()
		case c == ' ' || c == '\t' || c == '\r':
			flushWord()
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				word.WriteByte(s[i])
				inWord = true
			}
		case c == '\'' || c == '"':
			inWord = true
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				word.WriteString(s[i+1:])
				i = len(s)
				break
			}
			word.WriteString(s[i+1 : i+1+j])
			i += j + 1
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flushCmd()
	return cmds
}

// within says whether p is root or below it.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// withEnvrcSources is found with, for each .envrc in it, the existing
// files under root it loads (EnvrcSources) that found does not hold yet.
func withEnvrcSources(root string, found []string) []string {
	have := map[string]bool{}
	for _, p := range found {
		have[p] = true
	}
	out := found
	for _, p := range found {
		if filepath.Base(p) != ".envrc" {
			continue
		}
		for _, q := range EnvrcSources(root, p) {
			if _, err := os.Lstat(q); err == nil && !have[q] && !heldBelow(q, have) {
				have[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}

// heldBelow says whether a directory in have holds p already.
func heldBelow(p string, have map[string]bool) bool {
	for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
		if have[d] {
			return true
		}
	}
	return false
}

// LoadedBy is the .envrc, in p's directory or one above it up to root,
// that loads p (EnvrcSources), and ok false when none does. A file tool
// asks it before writing p: the .envrc that names a file is almost
// always beside or above it (an .envrc that names ../x from below is
// held by Find and a Tree, not by this).
func LoadedBy(root, p string) (envrc string, ok bool) {
	p = filepath.Clean(p)
	for d := filepath.Dir(p); within(d, root); d = filepath.Dir(d) {
		e := filepath.Join(d, ".envrc")
		if _, err := os.Lstat(e); err == nil && e != p {
			for _, q := range EnvrcSources(root, e) {
				if q == p {
					return e, true
				}
			}
		}
		if d == root || d == filepath.Dir(d) {
			break
		}
	}
	return "", false
}
