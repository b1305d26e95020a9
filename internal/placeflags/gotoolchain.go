package placeflags

import (
	"bufio"
	"bytes"
	"go/version"
	"path"
	"runtime"
	"strings"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// go.mod and go.work choose the Go toolchain that runs: with the default
// GOTOOLCHAIN=auto, the person's next go command in the module downloads
// the toolchain its toolchain line names (or, with none, the go line's
// version, when newer than the local go) and runs it instead. A changed
// toolchain line, or a go line raised, is a program chosen by the coder
// that the person runs later. Seeing it takes the file's old content: the
// checkpoint's stored copy (read).

// maxGoMod bounds how much of a go.mod or go.work is read.
const maxGoMod = 1 << 20

// GoToolchain flags each changed go.mod or go.work of changes whose
// toolchain line now names another toolchain, or whose go line asks for
// a newer Go than before. read is a file's content as entry e recorded it,
// after: e is the change's After, the file as it is now (nil when it
// cannot be had: then nothing is told of that file).
func GoToolchain(changes []checkpoint.Change, read func(p string, e *checkpoint.Entry, after bool) []byte) []Flag {
	var out []Flag
	for _, c := range changes {
		if base := path.Base(c.Path); base != "go.mod" && base != "go.work" || c.After == nil || c.After.Kind != checkpoint.KindFile {
			continue
		}
		now := read(c.Path, c.After, true)
		if now == nil {
			continue
		}
		var was goLines
		if c.Before != nil && c.Before.Kind == checkpoint.KindFile {
			old := read(c.Path, c.Before, false)
			if old == nil {
				continue
			}
			was = goLinesOf(old)
		}
		is := goLinesOf(now)
		var why []string
		if is.toolchain != "" && is.toolchain != was.toolchain {
			w := "its toolchain line now names " + is.toolchain
			if was.toolchain != "" {
				w += " (was " + was.toolchain + ")"
			}
			why = append(why, w)
		}
		if was.goVer != "" && is.goVer != "" && version.Compare("go"+is.goVer, "go"+was.goVer) > 0 {
			why = append(why, "its go line now asks for go "+is.goVer+" (was "+was.goVer+")")
		}
		if here := runtime.Version(); was.goVer == "" && is.goVer != "" && version.IsValid(here) && version.Compare("go"+is.goVer, here) > 0 {
			// A new file (or one with no go line before): only a Go newer
			// than this machine's is a download.
			why = append(why, "its go line asks for go "+is.goVer+", newer than this machine's "+here)
		}
		if len(why) > 0 {
			out = append(out, Flag{c.Path, strings.Join(why, "; ") + ": your next go command here downloads and runs that toolchain (GOTOOLCHAIN=auto)"})
		}
	}
	return out
}

// goLines are a go.mod's or go.work's go and toolchain values.
type goLines struct{ goVer, toolchain string }

// goLinesOf reads b's go and toolchain lines (the last of each wins, as
// go reports a duplicate as an error).
func goLinesOf(b []byte) goLines {
	if len(b) > maxGoMod {
		b = b[:maxGoMod]
	}
	var g goLines
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), maxGoMod)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "go":
			g.goVer = strings.Trim(f[1], `"`)
		case "toolchain":
			g.toolchain = strings.Trim(f[1], `"`)
		}
	}
	return g
}
