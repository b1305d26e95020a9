package runlater

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
)

// An .envrc can name what it loads through something only running it
// tells: `source_env "$DIR/x"`, `source_up $NAME`, `. "$(dirname $0)/y"`,
// `eval "$(cat z)"`. Its own simple assignments (F=.x; source_env $F) and
// $PWD are read; what is left is a loose name: a pattern in which each
// part that cannot be read stands for any text. Every file it could stand
// for is taken as loaded — and a name that is nothing but such parts
// (`source_env $F`, eval) could be any file, so every .env*-like file in
// the .envrc's directory tree is (the convention such a name follows),
// and Loads says the .envrc names a file it cannot read, so that a
// person sees it.

// Envrc is what one .envrc loads.
type Envrc struct {
	File  string   // the .envrc
	Paths []string // the paths it names outright, under root
	root  string
	dir   string
	loose []looseName
}

// looseName is one name an .envrc gives that cannot be read without
// running it.
type looseName struct {
	line string         // the command, as read
	re   *regexp.Regexp // nil: any .env*-like file
	mode byte           // 'd': relative to the .envrc's dir, 'a': absolute, 'u': in a directory above
}

// maxLooseWalk bounds how many entries under root are looked at to find
// the existing files a loose name stands for.
const maxLooseWalk = 50000

// interpreters run the file given as their first operand.
var interpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"python": true, "python3": true, "node": true, "ruby": true, "perl": true, "bun": true, "deno": true,
}

// envrcLoad is the loader verb of cmd and the names it loads, ok false
// when cmd loads nothing; eval (or an interpreter given code with -c)
// loads a name that could be anything: verb "eval", no names.
func envrcLoad(cmd []string) (verb string, names []string, ok bool) {
	c := cmd[0]
	if def, isLoader := envrcLoaders[c]; isLoader {
		if len(cmd) > 1 {
			return c, []string{cmd[1]}, true
		}
		return c, []string{def}, true
	}
	switch {
	case c == "eval":
		return "eval", nil, true
	case c == "use" && len(cmd) > 1 && cmd[1] == "nix", c == "use_nix":
		return c, []string{"shell.nix", "default.nix"}, true
	case c == "use" && len(cmd) > 1 && cmd[1] == "flake", c == "use_flake":
		return c, []string{"flake.nix"}, true
	case interpreters[c]:
		for _, a := range cmd[1:] {
			if a == "-c" {
				return "eval", nil, true
			}
			if !strings.HasPrefix(a, "-") {
				return c, []string{a}, true
			}
		}
		return "", nil, false
	case strings.ContainsAny(c, "/$`"):
		return "run", []string{c}, true // a program the .envrc runs
	}
	return "", nil, false
}

// addLoose keeps the loose name n, given by verb in line ("" for eval).
func (r *Envrc) addLoose(verb, line, n string) {
	l := looseName{line: line, mode: 'd'}
	switch {
	case strings.HasPrefix(verb, "source_up"):
		l.mode = 'u'
	case strings.HasPrefix(n, "/"), strings.HasPrefix(n, "$"), strings.HasPrefix(n, "`"), strings.HasPrefix(n, "~"):
		l.mode = 'a'
	}
	if n != "" {
		tail, anyName := looseTail(n)
		if !anyName {
			if strings.HasPrefix(verb, "source_env") {
				tail += `(/\.envrc)?`
			}
			l.re = regexp.MustCompile("^" + tail + "$")
		}
	}
	r.loose = append(r.loose, l)
}

// looseTail is n as a regular expression, each part that cannot be read
// standing for any text and a glob for what it matches; anyName when
// nothing of n is left but separators and dots.
func looseTail(n string) (tail string, anyName bool) {
	var re, lit strings.Builder
	skipTo := func(i int, open, close byte) int {
		depth := 0
		for ; i < len(n); i++ {
			switch n[i] {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					return i
				}
			}
		}
		return len(n)
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c == '$' && i+1 < len(n) && n[i+1] == '{':
			i = skipTo(i+1, '{', '}')
			re.WriteString(".*")
		case c == '$' && i+1 < len(n) && n[i+1] == '(':
			i = skipTo(i+1, '(', ')')
			re.WriteString(".*")
		case c == '$':
			for i+1 < len(n) && isNameByte(n[i+1]) {
				i++
			}
			re.WriteString(".*")
		case c == '`':
			if j := strings.IndexByte(n[i+1:], '`'); j >= 0 {
				i += j + 1
			} else {
				i = len(n)
			}
			re.WriteString(".*")
		case c == '~' && i == 0:
			re.WriteString(".*")
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		case c == '[':
			if j := strings.IndexByte(n[i:], ']'); j > 0 {
				i += j
			}
			re.WriteString("[^/]")
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
			lit.WriteByte(c)
		}
	}
	return re.String(), strings.Trim(lit.String(), "/.") == ""
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Loads says whether the .envrc loads p (absolute), and, when it is
// through a loose name, the command that names it (how is "" for a path
// named outright).
func (r Envrc) Loads(p string) (how string, ok bool) {
	p = filepath.Clean(p)
	for _, q := range r.Paths {
		if q == p {
			return "", true
		}
	}
	if p == r.File || !within(p, r.root) {
		return "", false
	}
	for _, l := range r.loose {
		if l.matches(r, p) {
			return l.line, true
		}
	}
	return "", false
}

// Loose are the commands of the .envrc that name a file it cannot read
// without running it.
func (r Envrc) Loose() []string {
	var out []string
	for _, l := range r.loose {
		out = append(out, l.line)
	}
	return out
}

// matches says whether the loose name l of r could stand for p.
func (l looseName) matches(r Envrc, p string) bool {
	if l.re == nil {
		b := filepath.Base(p)
		return strings.HasPrefix(b, ".env") && (within(p, r.dir) || l.mode == 'u' && within(r.dir, filepath.Dir(p)))
	}
	switch l.mode {
	case 'a':
		return l.re.MatchString(filepath.ToSlash(p))
	case 'u':
		for d := filepath.Dir(r.dir); within(d, r.root); d = filepath.Dir(d) {
			if rel, err := filepath.Rel(d, p); err == nil && l.re.MatchString(filepath.ToSlash(rel)) {
				return true
			}
			if d == r.root || d == filepath.Dir(d) {
				break
			}
		}
		return false
	}
	rel, err := filepath.Rel(r.dir, p)
	return err == nil && l.re.MatchString(filepath.ToSlash(rel))
}

// existingLoose are the files under root (git dirs passed over) that a
// loose name of r could stand for, looking at no more than maxLooseWalk
// entries.
func (r Envrc) existingLoose() []string {
	if len(r.loose) == 0 {
		return nil
	}
	var out []string
	seen := 0
	_ = filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxLooseWalk {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != r.root && isGitDir(p, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := r.Loads(p); ok && p != r.File {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// envrcVars are the values an .envrc gives its variables (each value any
// assignment gave, since a branch may have given it), PWD its directory.
type envrcVars map[string][]string

// maxVarValues bounds how many values one name expands to.
const maxVarValues = 16

// take records cmd's assignments and is what is left of cmd to run.
func (v envrcVars) take(cmd []string) []string {
	isAssign := func(w string) (string, string, bool) {
		i := strings.IndexByte(w, '=')
		if i <= 0 {
			return "", "", false
		}
		for j := 0; j < i; j++ {
			if !isNameByte(w[j]) || j == 0 && w[j] >= '0' && w[j] <= '9' {
				return "", "", false
			}
		}
		return w[:i], w[i+1:], true
	}
	record := func(name, val string) {
		vals := v.expand(val, v["PWD"][0])
		if len(v[name])+len(vals) > maxVarValues {
			v[name] = []string{"${" + name + "}"}
			return
		}
		v[name] = append(v[name], vals...)
	}
	switch cmd[0] {
	case "export", "local", "declare", "readonly", "typeset":
		for _, w := range cmd[1:] {
			if name, val, ok := isAssign(w); ok {
				record(name, val)
			}
		}
		return nil
	}
	for len(cmd) > 0 {
		name, val, ok := isAssign(cmd[0])
		if !ok {
			break
		}
		record(name, val)
		cmd = cmd[1:]
	}
	return cmd
}

// expand is w with each variable the .envrc gave (and $(pwd)) put in,
// once for each value it may have; a variable it did not give is left.
func (v envrcVars) expand(w, dir string) []string {
	out := []string{w}
	for range 8 {
		var next []string
		changed := false
		for _, s := range out {
			name, at, end := firstKnownVar(s, v)
			if at < 0 {
				next = append(next, s)
				continue
			}
			changed = true
			vals := v[name]
			if name == "" {
				vals = []string{dir}
			}
			for _, val := range vals {
				if len(next) < maxVarValues {
					next = append(next, s[:at]+val+s[end:])
				}
			}
		}
		out = next
		if !changed {
			break
		}
	}
	return out
}

// firstKnownVar finds in s the first $NAME or ${NAME} that v gives, or
// $(pwd) (name ""): its name and where it starts and ends; at -1 when none.
func firstKnownVar(s string, v envrcVars) (name string, at, end int) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		if strings.HasPrefix(s[i:], "$(pwd)") {
			return "", i, i + len("$(pwd)")
		}
		j, k := i+1, i+1
		if s[j] == '{' {
			j++
			k = strings.IndexByte(s[j:], '}')
			if k < 0 {
				continue
			}
			k += j
			if _, ok := v[s[j:k]]; ok {
				return s[j:k], i, k + 1
			}
			continue
		}
		for k < len(s) && isNameByte(s[k]) {
			k++
		}
		if _, ok := v[s[j:k]]; ok && k > j {
			return s[j:k], i, k
		}
	}
	return "", -1, -1
}
