package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/sandbox"
)

// mcpProbe is one of the person's MCP servers started inside the coder's
// sandbox by doctor, and whether it answered MCP's initialize.
type mcpProbe struct {
	Agent   string `json:"agent"`
	Name    string `json:"name"`
	Scope   string `json:"scope"`
	Command string `json:"command"`
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
}

// mcpStartBound is how long a server has to answer initialize: Claude Code
// gives up on a server sooner than that, so one slower is named as failing.
const mcpStartBound = 15 * time.Second

// mcpInitialize is the one request doctor sends a server.
const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sentinel-doctor","version":"0"}}}` + "\n"

// probeMCPServers starts each of the person's stdio MCP servers for
// project (each agent's that its entry reads: Claude Code's from
// ~/.claude.json, Codex's from its config.toml) in a sandbox made as a
// run's is, network off, and asks it to initialize: a server that cannot
// start inside (a script it cannot read, a missing interpreter) is named
// with its error before a run finds the coder without its tools.
func probeMCPServers(project string) []mcpProbe {
	home, _ := os.UserHomeDir()
	var servers []coder.MCPServer
	var agent, readable []string
	for _, a := range agents.All() {
		if a.MCPServers == nil {
			continue
		}
		mine, paths := a.MCPServers(home, project)
		servers = append(servers, mine...)
		for range mine {
			agent = append(agent, a.Name)
		}
		readable = append(readable, paths...)
	}
	if len(servers) == 0 {
		return nil
	}
	out := make([]mcpProbe, len(servers))
	for i, s := range servers {
		out[i] = mcpProbe{Agent: agent[i], Name: s.Name, Scope: s.Scope, Command: strings.Join(append([]string{s.Command}, s.Args...), " ")}
	}
	fail := func(err error) []mcpProbe {
		for i := range out {
			out[i].Error = "the trial sandbox could not be made: " + err.Error()
		}
		return out
	}
	p := sandbox.DefaultProfile(project, home)
	p.Net = sandbox.NetNone
	p.Readable = append(p.Readable, readable...)
	if err := applySandboxConfig(&p, project); err != nil {
		return fail(err)
	}
	sbx, err := sandbox.Prepare(p, sandbox.Options{Mode: sandbox.ModeAuto})
	if err != nil {
		return fail(err)
	}
	defer sbx.Close()
	var wg sync.WaitGroup // all at once: a hung server costs its bound once, not once each
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].OK, out[i].Error = startMCPServer(sbx, project, s, mcpStartBound)
		}()
	}
	wg.Wait()
	return out
}

// startMCPServer starts s in sbx and reports whether it answered
// initialize within bound, or why not (its own error, its stderr's last
// lines).
func startMCPServer(sbx *sandbox.Sandbox, dir string, s coder.MCPServer, bound time.Duration) (bool, string) {
	ctx, cancel := context.WithTimeout(context.Background(), bound) // a hang bound
	defer cancel()
	argv := []string{s.Command}
	if len(s.Env) > 0 { // the server's own env, given only to it (env(1) inside)
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		argv = []string{"env"}
		for _, k := range keys {
			argv = append(argv, k+"="+s.Env[k])
		}
		argv = append(argv, s.Command)
	}
	cmd, err := sbx.Command(ctx, dir, append(argv, s.Args...)...)
	if err != nil {
		return false, err.Error()
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return false, err.Error()
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, err.Error()
	}
	stderr := &agentutil.TailBuffer{Max: 4 << 10}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return false, "could not start: " + err.Error()
	}
	_, _ = io.WriteString(stdin, mcpInitialize)
	answer := make(chan string, 1) // "" when it answered initialize
	go func() { answer <- readInitialize(stdout) }()
	var why string
	select {
	case why = <-answer:
	case <-ctx.Done():
		why = fmt.Sprintf("did not answer initialize within %s", bound)
	}
	_ = stdin.Close()
	cancel()
	waitErr := cmd.Wait()
	if why == "" {
		return true, ""
	}
	if waitErr != nil && ctx.Err() == nil {
		why += " (" + waitErr.Error() + ")"
	}
	if tail := strings.TrimSpace(stderr.String()); tail != "" {
		why += ": " + strings.ReplaceAll(agentutil.LastLines(tail, 3), "\n", " | ")
	}
	return false, why
}

// readInitialize reads the server's output until its answer to initialize:
// "" for a result, else what went wrong.
func readInitialize(r io.Reader) string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || string(m.ID) != "1" {
			continue // a log line or a notification
		}
		if m.Error != nil {
			return "initialize failed: " + m.Error.Message
		}
		return ""
	}
	return "exited before answering initialize"
}

// printMCP prints the servers' lines for doctor.
func printMCP(w io.Writer, probes []mcpProbe) {
	if len(probes) == 0 {
		return
	}
	fmt.Fprintln(w, "your MCP servers (each started inside the coder's sandbox, network off)")
	for _, p := range probes {
		// Names, commands and errors come from config files and the
		// servers' own output: shown through the one sanitizer.
		label := textsafe.Line(fmt.Sprintf("%s %s (%s)", p.Agent, p.Name, p.Scope))
		if p.OK {
			fmt.Fprintf(w, "  ok       %s: %s\n", label, textsafe.Line(p.Command))
			continue
		}
		fmt.Fprintf(w, "  FAILED   %s: %s\n           %s\n", label, textsafe.Line(p.Command), textsafe.Line(p.Error))
	}
}
