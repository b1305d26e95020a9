package approvals

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/filelock"
)

// A template file is TOML with one [[template]] table per template:
//
//	[[template]]
//	id = "t-3fa9c2d1"
//	prefix = ["python", "-m", "pytest"]     # or exact = [...], path = "src/**", host = "pypi.org"
//	program_sha256 = "…"                     # optional: only while the script it runs is unchanged
//	created = 2026-11-29T22:00:00Z
//	created_run = "r-20261129-2200"
//	created_from = "python -m pytest -q tests/"
//	uses = 3
//	last_used = 2026-11-29T23:10:00Z
//	expires = 2026-12-29T22:00:00Z          # optional
//	match = ["python -m pytest -q"]          # examples it must cover…
//	not_match = ["python -m pytest; rm -rf /"] # …and must not
type templateRecord struct {
	ID          string     `toml:"id"`
	Prefix      []string   `toml:"prefix,omitempty"`
	Exact       []string   `toml:"exact,omitempty"`
	Path        string     `toml:"path,omitempty"`
	Host        string     `toml:"host,omitempty"`
	Program     string     `toml:"program_sha256,omitempty"`
	Created     *time.Time `toml:"created,omitempty"`
	CreatedRun  string     `toml:"created_run,omitempty"`
	CreatedFrom string     `toml:"created_from,omitempty"`
	Uses        int        `toml:"uses"`
	LastUsed    *time.Time `toml:"last_used,omitempty"`
	Expires     *time.Time `toml:"expires,omitempty"`
	Match       []string   `toml:"match,omitempty"`
	NotMatch    []string   `toml:"not_match,omitempty"`
}

type templateDoc struct {
	Template []templateRecord `toml:"template"`
}

// TemplateFileError names the file, line and field of a bad template file.
type TemplateFileError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *TemplateFileError) Error() string {
	field := ""
	if e.Field != "" {
		field = " field " + strconv.Quote(e.Field) + ":"
	}
	return fmt.Sprintf("%s:%d:%s %s (fix or remove it; see 'sentinel templates --help')", e.File, e.Line, field, e.Msg)
}

func (r templateRecord) template(scope Scope, file string) *Template {
	t := &Template{
		ID: r.ID, Scope: scope, File: file,
		Match:      Match{Prefix: r.Prefix, Exact: r.Exact, Path: r.Path, Host: r.Host, ProgramSHA256: r.Program},
		CreatedRun: r.CreatedRun, CreatedFrom: r.CreatedFrom, Uses: r.Uses,
		MatchExamples: r.Match, NotMatchExamples: r.NotMatch,
	}
	if r.Created != nil {
		t.Created = r.Created.UTC()
	}
	if r.LastUsed != nil {
		t.LastUsed = r.LastUsed.UTC()
	}
	if r.Expires != nil {
		t.Expires = r.Expires.UTC()
	}
	return t
}

func recordOf(t *Template) templateRecord {
	r := templateRecord{
		ID: t.ID, Prefix: t.Match.Prefix, Exact: t.Match.Exact, Path: t.Match.Path, Host: t.Match.Host, Program: t.Match.ProgramSHA256,
		CreatedRun: t.CreatedRun, CreatedFrom: t.CreatedFrom, Uses: t.Uses,
		Match: t.MatchExamples, NotMatch: t.NotMatchExamples,
	}
	stamp := func(v time.Time) *time.Time {
		if v.IsZero() {
			return nil
		}
		u := v.UTC().Truncate(time.Second)
		return &u
	}
	r.Created, r.LastUsed, r.Expires = stamp(t.Created), stamp(t.LastUsed), stamp(t.Expires)
	return r
}

// readTemplateFile loads and checks one file. A missing file is empty.
func readTemplateFile(file string, scope Scope) ([]*Template, error) {
	src, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read templates %s: %w", file, err)
	}
	return parseTemplates(src, file, scope)
}

func parseTemplates(src []byte, file string, scope Scope) ([]*Template, error) {
	var doc templateDoc
	md, err := toml.Decode(string(src), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &TemplateFileError{File: file, Line: pe.Position.Line, Field: pe.LastKey, Msg: pe.Message}
		}
		fe := &TemplateFileError{File: file, Line: 1, Msg: err.Error()}
		if m := decodeErrLine().FindStringSubmatch(err.Error()); m != nil {
			fe.Line, _ = strconv.Atoi(m[1])
			fe.Field = m[2]
			fe.Msg = strings.TrimSpace(err.Error()[len(m[0]):])
			fe.Msg = strings.TrimPrefix(fe.Msg, ": ")
		}
		return nil, fe
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		last := k[len(k)-1]
		return nil, &TemplateFileError{File: file, Line: keyLine(src, -1, last), Field: k.String(),
			Msg: "unknown field (known: id, prefix, exact, path, host, created, created_run, created_from, uses, last_used, expires, match, not_match)"}
	}
	seen := map[string]bool{}
	var out []*Template
	for i, r := range doc.Template {
		bad := func(field, msg string) error {
			return &TemplateFileError{File: file, Line: keyLine(src, i, field), Field: field, Msg: msg}
		}
		if r.ID == "" {
			return nil, bad("id", fmt.Sprintf("template #%d has no id", i+1))
		}
		if seen[r.ID] {
			return nil, bad("id", fmt.Sprintf("id %q is used twice", r.ID))
		}
		seen[r.ID] = true
		t := r.template(scope, file)
		if err := t.Match.Validate(); err != nil {
			field := t.Kind()
			if field == "empty" {
				field = "id"
			}
			return nil, bad(field, err.Error())
		}
		if r.Uses < 0 {
			return nil, bad("uses", "uses cannot be negative")
		}
		if field, err := t.checkExamples(); err != nil {
			return nil, bad(field, err.Error())
		}
		out = append(out, t)
	}
	return out, nil
}

// decodeErrLine reads the position out of a toml type-mismatch error.
var decodeErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\)`) })

var idLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*id\s*=`) })

var tableHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[\s*template\s*\]\]`) })

// keyLine finds the line of key inside the index-th [[template]] table (any
// table when index < 0). It falls back to the table's header line.
func keyLine(src []byte, index int, key string) int {
	lines := strings.Split(string(src), "\n")
	keyRe := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	n, header := -1, 1
	for i, l := range lines {
		if tableHeader().MatchString(l) {
			n++
			if n == index {
				header = i + 1
			}
			if index >= 0 && n > index {
				break
			}
			continue
		}
		if (index < 0 || n == index) && keyRe.MatchString(l) {
			return i + 1
		}
	}
	return header
}

// checkExamples re-checks the examples; it returns the failing field.
func (t *Template) checkExamples() (string, error) {
	for _, ex := range t.MatchExamples {
		ok, err := t.coversExample(ex)
		if err != nil {
			return "match", err
		}
		if !ok {
			return "match", fmt.Errorf("example %q is not covered by %s", ex, t.Match)
		}
	}
	for _, ex := range t.NotMatchExamples {
		ok, err := t.coversExample(ex)
		if err != nil {
			return "not_match", err
		}
		if ok {
			return "not_match", fmt.Errorf("example %q is covered by %s but must not be", ex, t.Match)
		}
	}
	return "", nil
}

func (t *Template) coversExample(ex string) (bool, error) {
	switch {
	case t.Match.Prefix != nil || t.Match.Exact != nil:
		parts, err := splitCommands(ex)
		if err != nil {
			return false, err
		}
		if len(parts) == 0 {
			return false, nil
		}
		for _, p := range parts {
			if !t.CoversPart(p) {
				return false, nil
			}
		}
		return true, nil
	case t.Match.Path != "":
		if filepath.IsAbs(ex) || strings.Contains("/"+ex+"/", "/../") {
			return false, nil
		}
		return globMatch(t.Match.Path, filepath.ToSlash(filepath.Clean(ex))), nil
	case t.Match.Host != "":
		h, p, err := splitHostPort(ex)
		if err != nil {
			return false, err
		}
		return t.CoversHost(h, p), nil
	}
	return false, nil
}

// fileLocks serialises this process's edits of one file; flock on a side
// lock file serialises them with other processes (another run, the CLI).
var fileLocks sync.Map

func lockFile(file string) (unlock func(), err error) {
	mu, _ := fileLocks.LoadOrStore(file, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		mu.(*sync.Mutex).Unlock()
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(file), err)
	}
	lf, err := os.OpenFile(file+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		mu.(*sync.Mutex).Unlock()
		return nil, fmt.Errorf("lock %s: %w", file, err)
	}
	if err := filelock.Lock(lf); err != nil {
		lf.Close()
		mu.(*sync.Mutex).Unlock()
		return nil, fmt.Errorf("lock %s: %w", file, err)
	}
	return func() {
		filelock.Unlock(lf)
		lf.Close()
		mu.(*sync.Mutex).Unlock()
	}, nil
}

// editFile re-reads file under the lock, applies edit, checks the result
// still parses, and replaces the file atomically (temp file + rename).
func editFile(file string, scope Scope, edit func(src []byte, ts []*Template) ([]byte, error)) error {
	unlock, err := lockFile(file)
	if err != nil {
		return err
	}
	defer unlock()
	// The person's editor does not take our lock: if the file changes while
	// we edit, start again from what they wrote rather than rename over it.
	for attempt := 0; attempt < 5; attempt++ {
		src, err := os.ReadFile(file)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("read templates %s: %w", file, err)
		}
		ts, err := parseTemplates(src, file, scope)
		if err != nil {
			return err // never rewrite a file the person has left broken
		}
		out, err := edit(src, ts)
		if err != nil {
			return err
		}
		if _, err := parseTemplates(out, file, scope); err != nil {
			return fmt.Errorf("refusing to write %s: the edit would break it: %w", file, err)
		}
		now, err := os.ReadFile(file)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("read templates %s: %w", file, err)
		}
		if !bytes.Equal(now, src) {
			continue
		}
		return writeAtomic(file, out)
	}
	return fmt.Errorf("%s keeps changing; not editing it now", file)
}

func writeAtomic(file string, data []byte) error {
	if err := atomicfile.Write(file, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

func encodeRecord(t *Template) ([]byte, error) {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(templateDoc{Template: []templateRecord{recordOf(t)}}); err != nil {
		return nil, fmt.Errorf("encode template %s: %w", t.ID, err)
	}
	return b.Bytes(), nil
}

// appendTemplate adds t at the end of file, keeping the person's text.
func appendTemplate(file string, scope Scope, t *Template) error {
	return editFile(file, scope, func(src []byte, ts []*Template) ([]byte, error) {
		for _, o := range ts {
			if o.ID == t.ID {
				return nil, fmt.Errorf("template id %s already exists in %s", t.ID, file)
			}
		}
		block, err := encodeRecord(t)
		if err != nil {
			return nil, err
		}
		out := append([]byte(nil), src...)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		return append(out, block...), nil
	})
}

// blockRange returns the line span [start, end) of the template with id.
func blockRange(lines []string, ts []*Template, id string) (int, int, error) {
	index := -1
	for i, t := range ts {
		if t.ID == id {
			index = i
		}
	}
	if index < 0 {
		return 0, 0, fmt.Errorf("no template %s", id)
	}
	n, start := -1, -1
	for i, l := range lines {
		isHeader := strings.HasPrefix(strings.TrimSpace(l), "[")
		if tableHeader().MatchString(l) {
			n++
			if n == index {
				start = i
				continue
			}
		}
		if start >= 0 && isHeader {
			return start, i, nil
		}
	}
	if start < 0 {
		return 0, 0, fmt.Errorf("template %s is not written as a [[template]] table; edit the file by hand", id)
	}
	return start, len(lines), nil
}

// removeTemplate deletes the table of id from file.
func removeTemplate(file string, scope Scope, id string) error {
	return editFile(file, scope, func(src []byte, ts []*Template) ([]byte, error) {
		lines := strings.Split(string(src), "\n")
		s, e, err := blockRange(lines, ts, id)
		if err != nil {
			return nil, err
		}
		out := append(append([]string{}, lines[:s]...), lines[e:]...)
		return []byte(strings.Join(out, "\n")), nil
	})
}

// addUsage adds delta uses and moves last_used forward in file, editing only
// those two lines of the template's table.
func addUsage(file string, scope Scope, id string, delta int, last time.Time) error {
	return editFile(file, scope, func(src []byte, ts []*Template) ([]byte, error) {
		lines := strings.Split(string(src), "\n")
		s, e, err := blockRange(lines, ts, id)
		if err != nil {
			return nil, err
		}
		var cur *Template
		for _, t := range ts {
			if t.ID == id {
				cur = t
			}
		}
		if cur.LastUsed.After(last) {
			last = cur.LastUsed
		}
		set := map[string]string{
			"uses":      strconv.Itoa(cur.Uses + delta),
			"last_used": last.UTC().Truncate(time.Second).Format(time.RFC3339),
		}
		block := append([]string{}, lines[s:e]...)
		for _, key := range []string{"uses", "last_used"} {
			re := regexp.MustCompile(`^\s*` + key + `\s*=`)
			done := false
			for i, l := range block {
				if re.MatchString(l) {
					block[i] = key + " = " + set[key]
					done = true
					break
				}
			}
			if !done {
				at := 1 // after the header, or better after the id line
				for i, l := range block {
					if idLine().MatchString(l) {
						at = i + 1
					}
				}
				block = append(block[:at], append([]string{key + " = " + set[key]}, block[at:]...)...)
			}
		}
		out := append(append(append([]string{}, lines[:s]...), block...), lines[e:]...)
		return []byte(strings.Join(out, "\n")), nil
	})
}
