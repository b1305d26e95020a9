package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/sandbox/internal/escapeprobe"
)

// probeArg makes the test binary run escape attempts instead of tests.
const probeArg = "escape-probe"

// probeConfig tells the probe, running inside a sandbox, what to attack.
type probeConfig struct {
	WriteTargets map[string]string // check name → path outside the writable roots
	ReadTargets  map[string]string // check name → file whose content is Marker
	Marker       string
	Workspace    string
	HostTCP      string // a listener on the host's loopback
	AllowedURL   string // allowed through the proxy (control)
	DeniedURL    string // not allowed; the asker says no
	InternalURLs []string
	SleeperPid   int               // a process outside the sandbox
	UnixSockets  map[string]string // check name → a listening socket outside
	BrokerSocket string            // in a ReadOnly dir: must stay reachable
}

// probeResult is one attempt: Escaped is true when the attempt worked.
type probeResult struct {
	Name    string `json:"name"`
	Escaped bool   `json:"escaped"`
	Detail  string `json:"detail"`
}

func probeMain(args []string) int {
	if len(args) == 1 && args[0] == "int80" {
		fd := escapeprobe.Int80Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		fmt.Println(fd)
		return 0
	}
	if len(args) == 2 && args[0] == "fetch" {
		pu, err := url.Parse(os.Getenv("HTTP_PROXY"))
		if err != nil || pu.Host == "" {
			fmt.Println("no proxy")
			return 1
		}
		cl := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := cl.Get(args[1])
		if err != nil {
			fmt.Println(err)
			return 1
		}
		b, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, strings.TrimSpace(string(b)))
		return 0
	}
	var cfg probeConfig
	if len(args) != 1 || json.Unmarshal([]byte(args[0]), &cfg) != nil {
		fmt.Fprintln(os.Stderr, "probe: bad config")
		return 2
	}
	enc := json.NewEncoder(os.Stdout)
	report := func(name string, escaped bool, detail any) {
		enc.Encode(probeResult{Name: name, Escaped: escaped, Detail: fmt.Sprint(detail)})
	}
	for name, p := range cfg.WriteTargets {
		err := os.WriteFile(p, []byte("escaped"), 0o644)
		report(name, err == nil, err)
	}
	for name, p := range cfg.ReadTargets {
		b, err := os.ReadFile(p)
		report(name, err == nil && strings.Contains(string(b), cfg.Marker), err)
	}
	// Control: the workspace itself is writable.
	err := os.WriteFile(filepath.Join(cfg.Workspace, "written-inside.txt"), []byte("ok"), 0o644)
	report("control-workspace-write", err != nil, err)
	for _, hook := range []string{".git/hooks/pre-commit", ".git/config"} {
		err := os.WriteFile(filepath.Join(cfg.Workspace, hook), []byte("#!/bin/sh\necho pwned\n"), 0o755)
		report("protected "+hook, err == nil, err)
	}
	err = os.Rename(filepath.Join(cfg.Workspace, ".git"), filepath.Join(cfg.Workspace, ".git-moved"))
	report("rename .git to plant new hooks", err == nil, err)
	err = os.Rename(filepath.Join(cfg.Workspace, ".git/hooks"), filepath.Join(cfg.Workspace, ".git/hooks-moved"))
	report("rename .git/hooks", err == nil, err)
	err = os.Remove(filepath.Join(cfg.Workspace, ".git/config"))
	report("remove .git/config", err == nil, err)
	bc, err := net.Dial("unix", cfg.BrokerSocket)
	report("control-broker-socket-reachable", err != nil, err)
	if bc != nil {
		bc.Close()
	}
	for name, p := range cfg.UnixSockets {
		c, err := net.Dial("unix", p)
		report(name, err == nil, err)
		if c != nil {
			c.Close()
		}
	}
	c, err := net.DialTimeout("tcp", cfg.HostTCP, 3*time.Second)
	report("tcp to the host loopback", err == nil, err)
	if c != nil {
		c.Close()
	}
	c, err = net.DialTimeout("tcp", "1.1.1.1:443", 3*time.Second)
	report("tcp to the internet", err == nil, err)
	u, err := net.Dial("udp", "1.1.1.1:53")
	if err == nil {
		_, err = u.Write([]byte("x"))
		u.Close()
	}
	report("udp to the internet", err == nil, err)
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP)
	report("raw socket", err == nil, err)
	if fd >= 0 {
		unix.Close(fd)
	}
	fd, err = unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0)
	report("packet socket", err == nil, err)
	addrs, err := net.LookupHost("example.com")
	report("dns", err == nil && len(addrs) > 0, err)

	proxied := func(target string) (int, string, error) {
		pu, err := url.Parse(os.Getenv("HTTP_PROXY"))
		if err != nil || pu.Host == "" {
			return 0, "", fmt.Errorf("no HTTP_PROXY in the environment")
		}
		cl := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := cl.Get(target)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	code, body, err := proxied(cfg.AllowedURL)
	report("control-proxy-allowed", !(code == 200 && strings.Contains(body, cfg.Marker)), fmt.Sprint(code, " ", err))
	code, body, err = proxied(cfg.DeniedURL)
	report("proxy to a host not allowed", code == 200, fmt.Sprint(code, " ", strings.TrimSpace(body), err))
	for _, iu := range cfg.InternalURLs {
		code, body, err = proxied(iu)
		report("proxy to internal "+iu, code != 403, fmt.Sprint(code, " ", strings.TrimSpace(body), err))
	}
	allowed, _ := url.Parse(cfg.AllowedURL)
	c, err = net.DialTimeout("tcp", allowed.Host, 3*time.Second)
	report("around the proxy (--noproxy)", err == nil, err)
	if c != nil {
		c.Close()
	}

	err = unix.PtraceAttach(cfg.SleeperPid)
	report("ptrace a process outside", err == nil, err)
	_, _, e := unix.RawSyscall(unix.SYS_PTRACE, unix.PTRACE_TRACEME, 0, 0)
	report("ptrace traceme", e == 0, e)
	err = unix.Kill(cfg.SleeperPid, unix.SIGKILL)
	report("signal a process outside", err == nil, err)
	leaked := ""
	if strings.Contains(strings.Join(os.Environ(), "\n"), cfg.Marker) {
		leaked = "own environment"
	}
	envs, _ := filepath.Glob("/proc/*/environ")
	for _, p := range envs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), cfg.Marker) {
			leaked = p
		}
	}
	report("secrets in /proc/*/environ", leaked != "", fmt.Sprintf("%d environ files looked at; leak: %q", len(envs), leaked))

	var params [120]byte
	r, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&params[0])), 0)
	report("io_uring", e == 0, fmt.Sprint(int(r), " ", e))
	if e == 0 {
		unix.Close(int(r))
	}
	out, err := exec.Command(os.Args[0], probeArg, "int80").Output()
	fdNum := strings.TrimSpace(string(out))
	report("32-bit int 0x80 socket", err == nil && !strings.HasPrefix(fdNum, "-"), fmt.Sprint(fdNum, " ", err))
	err = unix.Unshare(unix.CLONE_NEWUSER)
	report("new user namespace", err == nil, err)
	return 0
}
