package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// LogConfig is the [log] table: the server's own diagnostic log (not the
// audit journal, which records every call whatever the level).
type LogConfig struct {
	// Level is debug (each call with its arguments), info (each call),
	// warn (refusals, the default) or error (failures only).
	Level string `toml:"level"`
	// File is where the log goes (appended, 0600; never through a symlink,
	// and only a file no one else may write: openLogFile); empty is
	// standard error.
	File string `toml:"file"`

	level slog.Level
	off   bool // no [log] table: no log (the audit journal still records every call)
}

var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// checkLog validates [log]; where names the key for an error.
func (c *Config) checkLog(bad func(key []string, format string, a ...any) error) error {
	l := &c.Log
	l.off = l.Level == "" && l.File == ""
	lv := strings.ToLower(strings.TrimSpace(l.Level))
	if lv == "" {
		lv = "warn"
	}
	level, ok := logLevels[lv]
	if !ok {
		return bad([]string{"log", "level"}, "[log] level %q: use debug, info, warn or error", l.Level)
	}
	l.Level, l.level = lv, level
	if l.File != "" {
		if !filepath.IsAbs(l.File) {
			return bad([]string{"log", "file"}, "[log] file %q: give an absolute path, or leave it out for standard error", l.File)
		}
		p := filepath.Clean(l.File)
		if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			p = filepath.Join(real, filepath.Base(p))
		}
		if _, inside := c.place(p); inside {
			return bad([]string{"log", "file"}, "[log] file %s lies under a configured path, where the tools could read or change it: put it elsewhere (e.g. /var/log)", l.File)
		}
	}
	return nil
}

// openLog is the server's logger: to w when given (tests), else to [log]
// file or standard error. The closer closes an opened file.
func openLog(l LogConfig, w io.Writer) (*slog.Logger, io.Closer, error) {
	var closer io.Closer = io.NopCloser(nil)
	if l.off {
		w = io.Discard
	}
	if w == nil {
		w = os.Stderr
		if l.File != "" {
			f, err := openLogFile(l.File) // owner_unix.go
			if err != nil {
				return nil, nil, fmt.Errorf("[log] file %s: %w (fix the path or its permissions)", l.File, err)
			}
			w, closer = f, f
		}
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l.level})), closer, nil
}

// logCall logs one call at the level its outcome has: an error, a
// refusal (warn), an allowed call (info); debug adds its arguments.
func (s *Server) logCall(c Call) {
	attrs := []any{"tool", c.Tool, "decision", c.Decision}
	if c.Rule != "" {
		attrs = append(attrs, "rule", c.Rule)
	}
	if c.Class != "" {
		attrs = append(attrs, "class", string(c.Class))
	}
	if c.Reason != "" {
		attrs = append(attrs, "reason", c.Reason)
	}
	if c.ExitCode != nil {
		attrs = append(attrs, "exit", *c.ExitCode)
	}
	attrs = append(attrs, "ms", c.DurationMS)
	if s.log.Enabled(context.Background(), slog.LevelDebug) {
		args := string(c.Args)
		if c.ArgsSummary != nil {
			args = fmt.Sprintf("(%d bytes, sha256 %s)", c.ArgsSummary.Size, c.ArgsSummary.SHA256)
		}
		attrs = append(attrs, "args", argSummary(args))
	}
	switch c.Decision {
	case DecisionError:
		s.log.Error("call", attrs...)
	case DecisionDeny:
		s.log.Warn("call", attrs...)
	default:
		s.log.Info("call", attrs...)
	}
}
