package runlater

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// direnv asks for a new `direnv allow` only when the .envrc itself
// changes; what it sources (`source_env FILE`, `source_env_if_exists`,
// `dotenv FILE`, `dotenv_if_exists`, `source_up FILE`, `. FILE`, `source
// FILE`, `use nix`), runs (`./x.sh`, `bash x.sh`) or evals runs on the
// next cd with no question. (watch_file only makes direnv read the
// .envrc again when the file changes: it runs nothing of it.) So each file an .envrc
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
// loads or runs: named by a loader above (or run as a program, or given
// to an interpreter), relative to the .envrc's directory (a directory
// stands for its .envrc; source_up's name is looked up in each directory
// above, up to root), through the .envrc's own simple assignments
// (F=.x; source_env $F) and $PWD. Paths that do not exist yet are in the
// answer too (a coder that makes one gets it run). A name that cannot be
// read without running the file (another variable, a command's output,
// eval) is a loose name: every existing file under root it could stand
// for is in the answer too (see ReadEnvrc).
func EnvrcSources(root, envrc string) []string {
	r := ReadEnvrc(root, envrc)
	return append(r.Paths, r.existingLoose()...)
}

// ReadEnvrc reads what the .envrc file envrc loads (EnvrcSources), its
// loose names kept as patterns that Loads can test a path against.
func ReadEnvrc(root, envrc string) Envrc {
	r := Envrc{root: root, dir: filepath.Dir(envrc), File: envrc}
	b, err := readRegular(envrc, maxEnvrc)
	if err != nil {
		return r
	}
	vars := envrcVars{"PWD": {r.dir}}
	for _, cmd := range envrcCommands(string(b)) {
		cmd = vars.take(cmd)
		if len(cmd) == 0 {
			continue
		}
		verb, names, ok := envrcLoad(cmd)
		if !ok {
			continue
		}
		if verb == "eval" {
			r.addLoose(verb, strings.Join(cmd, " "), "")
			continue
		}
		for _, name := range names {
			if name == "" {
				continue
			}
			for _, n := range vars.expand(name, r.dir) {
				if strings.ContainsAny(n, "$`*?[~") {
					r.addLoose(verb, strings.Join(cmd, " "), n)
					continue
				}
				r.addNamed(verb, n)
			}
		}
	}
	return r
}

// addNamed adds the path verb loads under the name n (no variable left).
func (r *Envrc) addNamed(verb, n string) {
	add := func(p string) {
		p = filepath.Clean(p)
		if p != r.root && within(p, r.root) {
			r.Paths = append(r.Paths, p)
		}
	}
	if strings.HasPrefix(verb, "source_up") {
		for d := filepath.Dir(r.dir); within(d, r.root); d = filepath.Dir(d) {
			add(filepath.Join(d, n))
			if d == r.root {
				break
			}
		}
		return
	}
	p := n
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() && strings.HasPrefix(verb, "source_env") {
		p = filepath.Join(p, ".envrc")
	}
	add(p)
}

// readRegular is up to limit bytes of the regular file at name; a fifo,
// device or directory is an error, not a read (and not a wait: openRegular).
func readRegular(name string, limit int64) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// openRegular opens the regular file at name. It never waits: a fifo is
// opened without blocking, then refused with a device or a directory.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.Join(err, errors.New(name+" is not a regular file"))
	}
	return f, nil
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
			if _, loads := ReadEnvrc(root, e).Loads(p); loads {
				return e, true
			}
		}
		if d == root || d == filepath.Dir(d) {
			break
		}
	}
	return "", false
}
