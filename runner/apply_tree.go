package runner

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// changeSides is one changed path's content in the snapshot (base) and in
// the coder's result (theirs).
type changeSides struct{ base, theirs blob }

// readTreeChanges reads every path that differs between trees a and b,
// with both sides' contents, in two git processes whatever their number:
// `diff-tree -r -z` names the paths, modes and blobs, and one
// `cat-file --batch` reads all the blobs. A symlink or a submodule on
// either side is refused: Sentinel writes only regular files into the
// working tree.
func readTreeChanges(ctx context.Context, g gitCmd, a, b string) (map[string]changeSides, error) {
	out, err := g.run(ctx, "diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", a, b)
	if err != nil {
		return nil, err
	}
	type entry struct {
		path                       string
		oldMode, newMode, old, new string
	}
	var entries []entry
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.TrimPrefix(fields[i], ":")
		parts := strings.Fields(meta) // oldmode newmode oldsha newsha status
		if len(parts) < 5 {
			return nil, fmt.Errorf("read the change: unexpected diff-tree line %q", fields[i])
		}
		entries = append(entries, entry{path: fields[i+1], oldMode: parts[0], newMode: parts[1], old: parts[2], new: parts[3]})
	}
	var want bytes.Buffer
	for _, e := range entries {
		for _, side := range [][2]string{{e.oldMode, e.old}, {e.newMode, e.new}} {
			if err := regularMode(e.path, side[0]); err != nil {
				return nil, err
			}
			if side[0] != "000000" {
				want.WriteString(side[1] + "\n")
			}
		}
	}
	blobs := map[string][]byte{}
	if want.Len() > 0 {
		raw, err := g.input(want.Bytes()).run(ctx, "cat-file", "--batch")
		if err != nil {
			return nil, err
		}
		if blobs, err = parseBatch(raw); err != nil {
			return nil, err
		}
	}
	side := func(path, mode, sha string) (blob, error) {
		if mode == "000000" {
			return blob{absent: true}, nil
		}
		data, ok := blobs[sha]
		if !ok {
			return blob{}, fmt.Errorf("%s: blob %s missing from the object store", path, short(sha))
		}
		m := os.FileMode(0o644)
		if mode == "100755" {
			m = 0o755
		}
		return blob{data: data, mode: m}, nil
	}
	res := make(map[string]changeSides, len(entries))
	for _, e := range entries {
		base, err := side(e.path, e.oldMode, e.old)
		if err != nil {
			return nil, err
		}
		theirs, err := side(e.path, e.newMode, e.new)
		if err != nil {
			return nil, err
		}
		res[e.path] = changeSides{base: base, theirs: theirs}
	}
	return res, nil
}

// regularMode refuses what is not a regular file (or absent).
func regularMode(path, mode string) error {
	switch mode {
	case "000000", "100644", "100755":
		return nil
	case "120000":
		return fmt.Errorf("%s is a symlink: Sentinel does not write symlinks into your working tree; land on a branch instead", path)
	}
	return fmt.Errorf("%s: not a regular file in the patch (mode %s)", path, mode)
}

// parseBatch reads `git cat-file --batch` output: per object a header
// "<sha> <type> <size>" and its content.
func parseBatch(raw string) (map[string][]byte, error) {
	out := map[string][]byte{}
	r := bufio.NewReader(strings.NewReader(raw))
	for {
		hdr, err := r.ReadString('\n')
		if err == io.EOF && hdr == "" {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the blobs: %w", err)
		}
		parts := strings.Fields(hdr)
		if len(parts) != 3 || parts[1] != "blob" {
			return nil, fmt.Errorf("read the blobs: unexpected %q", strings.TrimSpace(hdr))
		}
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("read the blobs: bad size in %q", strings.TrimSpace(hdr))
		}
		data := make([]byte, n+1) // and the newline after it
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, fmt.Errorf("read the blobs: %w", err)
		}
		out[parts[0]] = data[:n]
	}
}
