package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/sentinelhq/sentinel/internal/mcpserver/sudoedit"
)

// SudoSettings is the [sudo] table: root-owned files the edit tool reaches
// through `sentinel mcp sudo-helper` (the service itself runs with
// NoNewPrivileges and can never sudo). The helper's own root-owned config
// decides what may be edited; this list only says which paths go to it.
type SudoSettings struct {
	// Socket is the helper's socket (default /run/sentinel-mcp-sudo.sock).
	Socket string `toml:"socket"`
	// Files are the paths routed to the helper, absolute and clean.
	Files []string `toml:"files"`
}

// checkSudo validates [sudo].
func (c *Config) checkSudo(path, src string) error {
	sd := &c.Sudo
	for i, f := range sd.Files {
		if !filepath.IsAbs(f) || filepath.Clean(f) != f {
			return fmt.Errorf("%s:%d: [sudo] files[%d] %q: give an absolute, clean path (no .., no trailing /)", path, findLine(src, toml.Key{"sudo", "files"}), i, f)
		}
	}
	if sd.Socket == "" {
		sd.Socket = sudoedit.DefaultSocket
	}
	if !filepath.IsAbs(sd.Socket) {
		return fmt.Errorf("%s:%d: [sudo] socket %q: give an absolute path", path, findLine(src, toml.Key{"sudo", "socket"}), sd.Socket)
	}
	return nil
}

// sudoFile says whether an edit of p goes through the sudo helper.
func (c *Config) sudoFile(p string) bool { return slices.Contains(c.Sudo.Files, p) }

// sudoEdit is an edit of a listed root-owned file: the content read and
// replaced by the helper, checked here and there with the in-process
// validators (a program check would run the file's kind of code as the
// person's tools do, on a copy under an rw path: not for these).
func (s *Server) sudoEdit(ctx context.Context, a editArgs) (edited, error) {
	if programFor(a.Validate, a.Path) != "" {
		return edited{}, &Refusal{Class: ClassBadInput, Rule: "sudo", Reason: "the " + a.Validate + " check runs a program on a copy under an rw path; " + a.Path + " is edited through the sudo helper",
			Use: "validate=auto, none, json, yaml, toml, go or sh; or copy the file under an rw path and check it with exec"}
	}
	check, err := validatorFor(a.Validate, a.Path)
	if err != nil {
		return edited{}, err
	}
	cl := sudoedit.Client{Socket: s.cfg.Sudo.Socket, Timeout: s.cfg.Limits.ExecTimeoutDuration()}
	refused := func(err error) error {
		var r *sudoedit.Refused
		if errors.As(err, &r) {
			return &Refusal{Class: ClassPathNotAllowed, Rule: "sudo helper", Reason: r.Reason, Use: "the person lists the file in /etc/sentinel/mcp-sudo.toml (root's) for the sudo helper"}
		}
		return err
	}
	cur, err := cl.Do(ctx, sudoedit.Request{Op: "read", Path: a.Path})
	if err != nil {
		return edited{}, refused(err)
	}
	var next []byte
	if a.Content != nil {
		next = []byte(*a.Content)
	} else {
		old := string(cur.Content)
		n := strings.Count(old, a.OldString)
		switch {
		case n == 0:
			return edited{}, &Refusal{Class: ClassNotFound, Reason: "old_string does not occur in " + a.Path, Use: "read the file and copy the text exactly"}
		case n > 1 && !a.ReplaceAll:
			return edited{}, &Refusal{Class: ClassBadInput, Reason: fmt.Sprintf("old_string occurs %d times in %s", n, a.Path), Use: "add surrounding text to make it unique, or set replace_all"}
		}
		if err := replacedFits(a.Path, len(old), n, a.OldString, a.NewString, sudoedit.MaxBytesCeiling); err != nil {
			return edited{}, err
		}
		next = []byte(strings.ReplaceAll(old, a.OldString, a.NewString))
	}
	if check.name != "" {
		if err := check.fn(next); err != nil {
			return edited{}, &Refusal{Class: ClassValidation, Rule: "validate " + check.name, Reason: fmt.Sprintf("the new content of %s is not valid %s: %v; the file is unchanged", a.Path, check.name, err),
				Use: "fix the content and edit again (or validate=none if it is meant to be so)"}
		}
	}
	// The helper keeps the backup (root's) and names it in its answer.
	if _, _, err := s.aboutToDestroy("edit (sudo helper)", a.Path, false); err != nil {
		return edited{}, err
	}
	done, err := cl.Do(ctx, sudoedit.Request{Op: "write", Path: a.Path, Content: next, OldSHA256: cur.SHA256})
	if err != nil {
		return edited{}, refused(err)
	}
	return edited{Abs: a.Path, Bytes: len(next), Backup: done.Backup, Check: check.name}, nil
}

// CheckContent is the in-process validation of a file's new content by its
// name (json, yaml, toml, go, sh), for the sudo helper.
func CheckContent(path string, data []byte) error {
	v, err := validatorFor("auto", path)
	if err != nil || v.fn == nil {
		return err
	}
	if err := v.fn(data); err != nil {
		return fmt.Errorf("not valid %s: %v", v.name, err)
	}
	return nil
}
