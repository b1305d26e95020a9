package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// What Claude Code refused itself is in its session transcripts
// (projects/<the workspace's key>/<session>.jsonl in the run's config
// dir): a tool_result the agent made, with toolDenialKind
// "permission-rule" (a deny rule or the permission mode; its
// permissionDecision's source says whether a hook or the person's config
// decided) or "user-rejected" (declined at its own prompt). Headless,
// its stream's result says the same (permission_denials); interactive, no
// hook fires for it, so this is the only record.

// Bounds on reading transcripts the coder could have written: a file past
// maxTranscript is read up to it, a line past maxTranscriptLine skipped.
const (
	maxTranscript     = 64 << 20
	maxTranscriptLine = 1 << 20
	maxTranscripts    = 64
	// maxTranscriptsRead bounds what one coder's end reads in all.
	maxTranscriptsRead = 128 << 20
)

// transcriptLine is the part of a transcript line read here.
type transcriptLine struct {
	Type           string `json:"type"`
	ToolDenialKind string `json:"toolDenialKind"`
	Decision       *struct {
		Decision string `json:"decision"`
		Source   string `json:"source"`
	} `json:"permissionDecision"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// AgentDenials reads the calls Claude Code refused itself in the sessions
// this run's config dir holds for its workspace, written since since: by
// the person's deny rules (not a hook's deny: that was Sentinel's own) or
// at its prompt. Nothing readable is nothing refused.
func (a *Adapter) AgentDenials(since time.Time) []coder.Denied {
	if a.opts.ConfigDir == "" || a.workspace == "" {
		return nil
	}
	root, err := os.OpenRoot(filepath.Join(a.opts.ConfigDir, "projects"))
	if err != nil {
		return nil
	}
	defer root.Close()
	key := ProjectKey(a.workspace)
	dir, err := nofollow.OpenDirIn(root, key)
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	sort.Strings(names)
	var out []coder.Denied
	read, budget := 0, int64(maxTranscriptsRead)
	for _, n := range names {
		if !strings.HasSuffix(n, ".jsonl") || read >= maxTranscripts {
			continue
		}
		f, err := nofollow.OpenIn(root, filepath.Join(key, n), os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && !st.ModTime().Before(since) && budget > 0 {
			read++
			lim := &io.LimitedReader{R: f, N: min(maxTranscript, budget)}
			out = append(out, denialsIn(lim)...)
			budget -= min(maxTranscript, budget) - lim.N
		}
		f.Close()
	}
	return out
}

// denialsIn reads one transcript's refusals.
func denialsIn(r io.Reader) []coder.Denied {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []coder.Denied
	for {
		line, err := readLine(br)
		if len(line) > 0 && bytes.Contains(line, []byte(`"toolDenialKind"`)) {
			out = append(out, denialOf(line)...)
		}
		if err != nil {
			return out
		}
	}
}

// readLine is the next line, or nil for one past maxTranscriptLine (read
// to its end and dropped).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxTranscriptLine {
				line, tooLong = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// denialOf is the refusals one transcript line records.
func denialOf(line []byte) []coder.Denied {
	var l transcriptLine
	if json.Unmarshal(line, &l) != nil || l.Type != "user" {
		return nil
	}
	var by string
	switch {
	case l.ToolDenialKind == "permission-rule" && l.Decision != nil && l.Decision.Decision == "reject" && l.Decision.Source != "hook":
		by = coder.DeniedByRules
	case l.ToolDenialKind == "user-rejected":
		by = coder.DeniedAtPrompt
	default:
		return nil
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return nil
	}
	var out []coder.Denied
	for _, b := range blocks {
		if b.Type != "tool_result" || b.ToolUseID == "" {
			continue
		}
		var text string
		_ = json.Unmarshal(b.Content, &text) // a list of blocks keeps no text
		out = append(out, coder.Denied{ToolUseID: b.ToolUseID, Tool: toolOfDenial(text), By: by, Text: text})
	}
	return out
}

// toolOfDenial is the tool Claude Code's refusal names ("Permission to
// use Bash with command … has been denied."), or "".
func toolOfDenial(text string) string {
	rest, ok := strings.CutPrefix(text, "Permission to use ")
	if !ok {
		return ""
	}
	tool, _, _ := strings.Cut(rest, " ")
	return tool
}
