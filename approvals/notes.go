package approvals

import (
	"strconv"
	"strings"
	"sync"
)

// coderNotes are lines the coder's agent should be told with its next tool
// result: what Sentinel refused outside the hook's sight, like a host the
// sandbox's proxy turned away while a command ran. A hook-based agent gets
// them the way it gets a policy deny's reason — from Sentinel, in the
// agent's own channel (Claude Code: PostToolUse additionalContext).
type coderNotes struct {
	mu    sync.Mutex
	lines []string
}

// maxNotes bounds what waits for the next tool result (a flood of refusals
// is summarized by its first lines and a count).
const maxNotes = 20

func (n *coderNotes) add(line string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, l := range n.lines {
		if l == line {
			return
		}
	}
	if len(n.lines) < 10*maxNotes { // a flood waiting for no tool result stays bounded
		n.lines = append(n.lines, line)
	}
}

func (n *coderNotes) take() string {
	n.mu.Lock()
	lines := n.lines
	n.lines = nil
	n.mu.Unlock()
	if len(lines) == 0 {
		return ""
	}
	more := 0
	if len(lines) > maxNotes {
		more = len(lines) - maxNotes
		lines = lines[:maxNotes]
	}
	out := strings.Join(lines, "\n")
	if more > 0 {
		out += "\n(and " + strconv.Itoa(more) + " more refusals; see the run's journal)"
	}
	return out
}

// NoteForCoder queues one line (Sentinel's own words, e.g. the proxy's
// refusal of a host) for the coder's agent: it goes back with the answer to
// the next tool-result report, which a hook hands to the agent.
func (b *Broker) NoteForCoder(line string) {
	line = strings.TrimSpace(oneLine(line))
	if line != "" {
		b.notes.add(line)
	}
}

// TakeCoderNotes returns and forgets the queued notes, for a coder whose
// tool results do not pass through the hook's reports (Codex's app-server
// takes them as a steering message).
func (b *Broker) TakeCoderNotes() string { return b.notes.take() }
