package agentutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// An agent run in place keeps its own history the way direct use does:
// session transcripts, todos, prompt history. The run's state dir is a
// copy (the agent's settings, hooks and login stay Sentinel's to give), so
// what the person's history holds for this project is copied in before
// the run, and what the run added or changed is copied back after it.
// Copying back, not binding the person's directory writable: the coder
// cannot leave a link in the person's state that their own agent later
// writes through (a transcript linked to ~/.bashrc), and sees no other
// project's history. Only regular files travel, never links.

// Some of what an agent keeps is code or orders its next start obeys, not
// history: Claude Code runs the scripts in session-env/<session>/ ahead of
// every Bash command of that session, and Gemini CLI runs git in its
// checkpoint repository (history/<slug>/.git) with that repository's
// config. The coder writes the run's copy (it is the agent's state dir in
// the sandbox), so what it left there would run on the host under the
// person's own, unsandboxed agent. Such paths are seeded but never copied
// back (Held); paths whose content the agent obeys as instructions (Claude
// Code's auto memory) come back and are named (Told).

// maxKeptFile bounds one file copied in or back.
const maxKeptFile = 256 << 20

type keptStamp struct {
	size  int64
	mtime time.Time
}

func stampOf(fi fs.FileInfo) keptStamp { return keptStamp{fi.Size(), fi.ModTime()} }

// KeptState is one agent's history kept across in-place runs: Real is the
// person's state dir (~/.claude, ~/.codex), Run the run's own.
type KeptState struct {
	Real, Run string
	real      map[string]keptStamp // rel → the person's file as seeded
	run       map[string]keptStamp // rel → the run's copy as seeded
	lines     map[string]int64     // rel → the run copy's size after SeedLines
	dirs      []string             // rels of directories WriteBack walks
	held      []keptRule           // never copied back
	heldN     map[string]int       // held rule → files WriteBack left
	told      []keptRule           // copied back and named
	// Rewrite, when set, turns a whole file WriteBack copies back (rel
	// under Real) into what is written there: what names the run's own
	// setup becomes what the person's direct use would have written.
	Rewrite func(rel string, data []byte) []byte
	// SeedRewrite, when set, turns a whole file SeedFile copies in into
	// what the run's copy holds: the person's own setup named as the
	// run's (Rewrite's inverse), so the run's agent lists it as its own.
	// The copy's stamp is taken after, so a file the run left alone is
	// still unchanged by it.
	SeedRewrite func(rel string, data []byte) []byte
}

// keptRule is a relative path (and everything under it) and why it is
// held or told.
type keptRule struct{ rel, why string }

// Held names a path (relative; a directory covers what is under it)
// whose new and changed files WriteBack never copies back, noting how
// many with why.
func (k *KeptState) Held(rel, why string) {
	k.held = append(k.held, keptRule{filepath.Clean(rel), why})
}

// Told names a path whose new and changed files WriteBack copies back
// and notes with why.
func (k *KeptState) Told(rel, why string) {
	k.told = append(k.told, keptRule{filepath.Clean(rel), why})
}

// ruleOf is the first rule covering rel.
func ruleOf(rules []keptRule, rel string) (keptRule, bool) {
	rel = filepath.Clean(rel)
	for _, r := range rules {
		if rel == r.rel || strings.HasPrefix(rel, r.rel+string(filepath.Separator)) {
			return r, true
		}
	}
	return keptRule{}, false
}

// NewKeptState starts keeping state from real in run.
func NewKeptState(real, run string) *KeptState {
	return &KeptState{Real: real, Run: run, real: map[string]keptStamp{}, run: map[string]keptStamp{}, lines: map[string]int64{}, heldN: map[string]int{}}
}

// Dir names a directory (relative) whose new and changed files WriteBack
// copies back; SeedDir names it too.
func (k *KeptState) Dir(rel string) { k.dirs = append(k.dirs, rel) }

// SeedFile copies Real/rel into Run/rel when it is a regular file.
func (k *KeptState) SeedFile(rel string) error {
	src, dst := filepath.Join(k.Real, rel), filepath.Join(k.Run, rel)
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxKeptFile {
		return nil
	}
	if err := k.copyIn(rel, src, dst); err != nil {
		return fmt.Errorf("copy %s into the run: %w", src, err)
	}
	out, err := os.Lstat(dst)
	if err != nil {
		return err
	}
	k.real[rel], k.run[rel] = stampOf(fi), stampOf(out)
	return nil
}

// Seeded says Run/rel was copied in from the person's (SeedFile).
func (k *KeptState) Seeded(rel string) bool {
	_, ok := k.run[filepath.Clean(rel)]
	return ok
}

// SeedDir copies the regular files under Real/rel into Run/rel, and names
// rel for WriteBack.
func (k *KeptState) SeedDir(rel string) error {
	k.Dir(rel)
	root := filepath.Join(k.Real, rel)
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		return nil
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil // links and the unreadable are left out
		}
		r, err := filepath.Rel(k.Real, p)
		if err != nil {
			return nil
		}
		return k.SeedFile(r)
	})
}

// SeedLines copies the lines of the JSON-lines file Real/rel that keep
// accepts into Run/rel; WriteBack appends the lines the run added.
func (k *KeptState) SeedLines(rel string, keep func(line []byte) bool) error {
	dst := filepath.Join(k.Run, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	var buf bytes.Buffer
	if in, err := os.Open(filepath.Join(k.Real, rel)); err == nil {
		sc := bufio.NewScanner(io.LimitReader(in, maxKeptFile))
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			if keep(sc.Bytes()) {
				buf.Write(sc.Bytes())
				buf.WriteByte('\n')
			}
		}
		in.Close()
	}
	f, err := nofollow.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	k.lines[rel] = int64(buf.Len())
	return f.Close()
}

// WriteBack copies into Real what the run added or changed under the
// directories it keeps, and appends the JSON lines it added to the
// line files. A file the person changed meanwhile is left as they have
// it, and said so; notes say what was not kept.
func (k *KeptState) WriteBack() (notes []string) {
	done := map[string]bool{} // a dir and one inside it are both named
	for _, rel := range k.dirs {
		root := filepath.Join(k.Run, rel)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			r, err := filepath.Rel(k.Run, p)
			if err != nil || done[r] {
				return nil
			}
			done[r] = true
			if n := k.writeBackFile(r); n != "" {
				notes = append(notes, textsafe.Line(n)) // a name the coder chose
			}
			return nil
		})
	}
	for _, r := range k.held {
		if n := k.heldN[r.rel]; n > 0 {
			notes = append(notes, textsafe.Line(fmt.Sprintf("%d file(s) the run wrote under %s not kept: %s", n, filepath.Join(k.Real, r.rel), r.why))) // a folder name the coder may have chosen
			delete(k.heldN, r.rel)
		}
	}
	for rel, from := range k.lines {
		if n := k.appendLines(rel, from); n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

func (k *KeptState) writeBackFile(rel string) string {
	src, dst := filepath.Join(k.Run, rel), filepath.Join(k.Real, rel)
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	if seeded, ok := k.run[rel]; ok && seeded == stampOf(fi) {
		return "" // unchanged by the run
	}
	if r, ok := ruleOf(k.held, rel); ok {
		k.heldN[r.rel]++
		return ""
	}
	if fi.Size() > maxKeptFile {
		return fmt.Sprintf("%s not kept: larger than %d MB", dst, maxKeptFile>>20)
	}
	now, err := os.Lstat(dst)
	switch {
	case err == nil && !now.Mode().IsRegular():
		return fmt.Sprintf("%s not kept: something other than a file is there", dst)
	case err == nil && k.real[rel] != stampOf(now):
		return fmt.Sprintf("%s not kept: it changed outside the run meanwhile", dst)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	if err := k.copyBack(rel, src, dst); err != nil {
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	if r, ok := ruleOf(k.told, rel); ok {
		return fmt.Sprintf("%s kept, changed by the run: %s", dst, r.why)
	}
	return ""
}

// copyIn is CopyPrivate through SeedRewrite, when set.
func (k *KeptState) copyIn(rel, src, dst string) error {
	if k.SeedRewrite == nil {
		return CopyPrivate(src, dst)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(dst, k.SeedRewrite(rel, data), 0o600)
}

// copyBack is copyReplace through Rewrite, when set: the rewritten bytes
// replace dst whole (atomicfile: a fresh temp file beside it, renamed
// over it, so no link there is followed).
func (k *KeptState) copyBack(rel, src, dst string) error {
	if k.Rewrite == nil {
		return copyReplace(src, dst)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(dst, k.Rewrite(rel, data), 0o600)
}

// copyReplace writes src over dst through a temp file beside it and a
// rename (which replaces a name, never follows it).
func copyReplace(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(dst), ".sentinel-keep-"+filepath.Base(dst))
	_ = os.Remove(tmp)
	if err := CopyPrivate(src, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// appendLines appends to Real/rel the whole JSON-object lines the run
// wrote after the seeded part of Run/rel.
func (k *KeptState) appendLines(rel string, from int64) string {
	src, dst := filepath.Join(k.Run, rel), filepath.Join(k.Real, rel)
	in, err := os.Open(src)
	if err != nil {
		return ""
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() < from {
		return fmt.Sprintf("%s: the run's history was cut short; nothing added", dst)
	}
	if _, err := in.Seek(from, io.SeekStart); err != nil {
		return ""
	}
	var add bytes.Buffer
	sc := bufio.NewScanner(io.LimitReader(in, maxKeptFile))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var obj map[string]any
		if json.Unmarshal(sc.Bytes(), &obj) == nil {
			add.Write(sc.Bytes())
			add.WriteByte('\n')
		}
	}
	if add.Len() == 0 {
		return ""
	}
	if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
		return fmt.Sprintf("%s not kept: something other than a file is there", dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	out, err := nofollow.OpenFile(dst, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	if _, err := out.Write(add.Bytes()); err != nil {
		out.Close()
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Sprintf("%s not kept: %v", dst, err)
	}
	return ""
}
