package service

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"syscall"

	gnet "github.com/shirou/gopsutil/v4/net"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// maxConnections bounds the connections read for one agent per scan.
const maxConnections = 256

// bypassed says whether pid was started with BypassEnv set.
func bypassed(ctx context.Context, pid int32) bool {
	ctx = realProc(ctx)
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return false
	}
	env, err := p.EnvironWithContext(ctx)
	if err != nil {
		return false
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, BypassEnv+"="); ok {
			return v == "1"
		}
	}
	return false
}

// telemetry journals what is new about an adopted agent since the last
// scan: children it started and network endpoints it talks to.
func (s *Service) telemetry(ctx context.Context, t procTable, key Target, p *Proc) {
	var tel Telemetry
	tel.PID, tel.Program = p.PID, p.Program
	s.mu.Lock()
	tr := s.agents[key]
	if tr == nil {
		s.mu.Unlock()
		return
	}
	for _, c := range t.children(p.PID) {
		if !tr.children[c.PID] {
			tr.children[c.PID] = true
			tel.Children = append(tel.Children, Child{PID: c.PID, Comm: c.Comm, Argv: c.Argv})
		}
	}
	s.mu.Unlock()
	conns, _ := gnet.ConnectionsPidMaxWithoutUidsWithContext(realProc(ctx), "all", p.PID, maxConnections)
	s.mu.Lock()
	for _, c := range conns {
		cn := connection(c)
		id := cn.Type + " " + cn.Local + " " + cn.Remote
		if cn.Remote == "" || tr.remotes[id] {
			continue // listening or unconnected sockets say little; a seen one is journaled already
		}
		tr.remotes[id] = true
		tel.Connections = append(tel.Connections, cn)
	}
	s.mu.Unlock()
	if len(tel.Children) == 0 && len(tel.Connections) == 0 {
		return
	}
	sort.Slice(tel.Children, func(i, j int) bool { return tel.Children[i].PID < tel.Children[j].PID })
	var what []string
	for _, c := range tel.Children {
		what = append(what, fmt.Sprintf("started %s[%d]", c.Comm, c.PID))
	}
	for _, c := range tel.Connections {
		what = append(what, "connected to "+c.Remote+" ("+c.Type+")")
	}
	s.note(journal.System, KindAgentTelemetry, fmt.Sprintf("%s (pid %d): %s", p.Program, p.PID, strings.Join(what, "; ")), tel)
}

// connection is one of gopsutil's connections in the journal's terms.
func connection(c gnet.ConnectionStat) Connection {
	typ := "unix"
	switch {
	case c.Family == syscall.AF_INET && c.Type == syscall.SOCK_STREAM:
		typ = "tcp"
	case c.Family == syscall.AF_INET && c.Type == syscall.SOCK_DGRAM:
		typ = "udp"
	case c.Family == syscall.AF_INET6 && c.Type == syscall.SOCK_STREAM:
		typ = "tcp6"
	case c.Family == syscall.AF_INET6 && c.Type == syscall.SOCK_DGRAM:
		typ = "udp6"
	}
	addr := func(a gnet.Addr) string {
		if a.IP == "" && a.Port == 0 {
			return ""
		}
		if typ == "unix" {
			return a.IP
		}
		return net.JoinHostPort(a.IP, strconv.Itoa(int(a.Port)))
	}
	return Connection{Type: typ, Local: addr(c.Laddr), Remote: addr(c.Raddr), Status: c.Status}
}
