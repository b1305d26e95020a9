package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// checkWritable says why an [exec] writable entry cannot be used: it must
// name one place, absolutely or under ~/, and never the whole machine or
// the whole home (which would put every credential's directory in reach).
func checkWritable(w string) error {
	switch {
	case strings.TrimSpace(w) == "":
		return errors.New("empty; name a directory")
	case w == "~" || w == "~/":
		return errors.New("the whole home is too much; name a directory under it")
	case !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/"):
		return errors.New("want an absolute path or one starting with ~/")
	case filepath.Clean(w) == "/":
		return errors.New("the whole file system is too much; name a directory")
	}
	return nil
}

// ExpandWritable is [exec] writable with ~/ made home and each entry
// cleaned; it refuses an entry that is the home itself or holds it.
func ExpandWritable(list []string, home string) ([]string, error) {
	var out []string
	for _, w := range list {
		if err := checkWritable(w); err != nil {
			return nil, fmt.Errorf("[exec] writable entry %q: %v", w, err)
		}
		p := w
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			if home == "" {
				return nil, fmt.Errorf("[exec] writable entry %q: no home directory to expand ~ in; give an absolute path", w)
			}
			p = filepath.Join(home, rest)
		}
		p = filepath.Clean(p)
		if home != "" {
			if rel, err := filepath.Rel(p, filepath.Clean(home)); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
				return nil, fmt.Errorf("[exec] writable entry %q: it holds the whole home %s; name a directory under it", w, home)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

type namedBound struct {
	key string
	n   int
}

// checkpointBounds are the [exec] checkpoint bounds by key, in file order.
func (e Exec) checkpointBounds() []namedBound {
	return []namedBound{{"checkpoint_max_file_mib", e.CheckpointMaxFileMiB}, {"checkpoint_max_total_mib", e.CheckpointMaxTotalMiB}}
}
