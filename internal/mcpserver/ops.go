package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// serviceTool runs `systemctl ACTION UNIT` for a configured service and
// action. It runs outside the sandbox (talking to the service manager is
// the point), as a fixed argv: the model picks only among the config's
// names and actions.
func (s *Server) serviceTool(ctx context.Context, a serviceArgs) (outcome, error) {
	svc, ok := s.cfg.Services[a.Unit]
	if !ok {
		return outcome{}, &Refusal{Class: ClassNotFound, Rule: "services", Reason: fmt.Sprintf("no service %q in the config", a.Unit), Use: "one of: " + strings.Join(s.serviceNames(), ", ")}
	}
	if !slices.Contains(svc.Actions, a.Action) {
		return outcome{}, &Refusal{Class: ClassNotAllowed, Rule: "services." + a.Unit + ".actions", Reason: fmt.Sprintf("action %q is not allowed for %s", a.Action, a.Unit), Use: "one of: " + strings.Join(svc.Actions, ", ")}
	}
	unit := svc.Unit
	if unit == "" {
		unit = a.Unit
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Limits.ExecTimeoutDuration())
	defer cancel()
	args := []string{a.Action, "--no-pager", "--", unit}
	if err := s.audit.aboutToRun("service", unit, "systemctl "+strings.Join(args, " ")); err != nil {
		return outcome{rule: "services." + a.Unit}, err
	}
	cmd := exec.CommandContext(ctx, s.opts.Systemctl, args...)
	out := &capped{max: s.cfg.Limits.MaxOutputBytes}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	r := ran{Output: out.buf.Bytes(), Truncated: out.over, TimedOut: ctx.Err() != nil}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.Exit = ee.ExitCode()
	default:
		return outcome{rule: "services." + a.Unit}, fmt.Errorf("run %s: %w", s.opts.Systemctl, err)
	}
	exit := r.Exit
	return outcome{text: formatRan(r, s.cfg.Limits), rule: "services." + a.Unit + ".actions", exit: &exit, bytes: len(r.Output)}, nil
}

// playbookTool runs a diagnostic playbook's commands in order, in the
// sandbox (the person wrote them, so they are not held to the allowlist),
// or returns a procedure's steps for the model to follow with the other
// tools, each of which is gated as usual.
func (s *Server) playbookTool(ctx context.Context, a playbookArgs) (outcome, error) {
	pb, ok := s.cfg.Playbooks[a.Name]
	if !ok {
		return outcome{}, &Refusal{Class: ClassNotFound, Rule: "playbooks", Reason: fmt.Sprintf("no playbook %q in the config", a.Name), Use: "one of: " + strings.Join(s.playbookNames(), ", ")}
	}
	var b strings.Builder
	if missing := missingRequirements(pb.Requires); len(missing) > 0 {
		return outcome{}, &Refusal{Class: ClassNotFound, Rule: "playbooks." + a.Name + ".requires", Reason: fmt.Sprintf("playbook %s requires %s, which this host lacks", a.Name, strings.Join(missing, ", ")),
			Use: "ask the person to install it, or use another playbook"}
	}
	if pb.Kind != PlaybookProcedure { // its commands run: the place before them
		pointOf(ctx).take("playbook: " + a.Name)
	}
	var swept []string
	if pb.When != "" {
		if err := s.audit.aboutToRun("playbook", s.defaultCwd(), pb.When); err != nil {
			return outcome{rule: "playbooks." + a.Name + ".when"}, err
		}
		r, err := s.run.run(ctx, s.defaultCwd(), pb.When)
		said := r.Swept
		swept = append(swept, said...)
		if n := sweepNote(said); n != "" {
			b.WriteString(n[1:] + "\n")
		}
		if err != nil {
			return outcome{rule: "playbooks." + a.Name + ".when", swept: swept}, err
		}
		if r.Exit != 0 {
			exit := r.Exit
			return outcome{text: b.String() + fmt.Sprintf("playbook %s skipped: its condition `%s` exited %d (it runs only when that exits 0)\n%s", a.Name, pb.When, r.Exit, formatRan(r, s.cfg.Limits)),
				rule: "playbooks." + a.Name + ".when", exit: &exit, swept: swept}, nil
		}
	}
	if pb.Notes != "" {
		fmt.Fprintf(&b, "Notes: %s\n", pb.Notes)
	}
	if pb.Kind == PlaybookProcedure {
		fmt.Fprintf(&b, "Procedure %s: %s\nFollow these steps with the other tools (each is checked as usual):\n", a.Name, pb.Description)
		for i, st := range pb.Steps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, st)
		}
		return outcome{text: b.String(), rule: "playbooks." + a.Name}, nil
	}
	last := 0
	for _, c := range pb.Commands {
		if err := s.audit.aboutToRun("playbook", s.defaultCwd(), c); err != nil {
			return outcome{rule: "playbooks." + a.Name, swept: swept}, err
		}
		r, err := s.run.run(ctx, s.defaultCwd(), c)
		said := r.Swept
		swept = append(swept, said...)
		if err != nil {
			return outcome{rule: "playbooks." + a.Name, swept: swept}, err
		}
		fmt.Fprintf(&b, "$ %s\n%s%s\n", c, formatRan(r, s.cfg.Limits), sweepNote(said))
		last = r.Exit
	}
	return outcome{text: b.String(), rule: "playbooks." + a.Name, exit: &last, bytes: b.Len(), swept: swept}, nil
}

// missingRequirements is what of reqs this host lacks: a program not on
// PATH, an absolute path that does not exist. Nothing is run to find out.
func missingRequirements(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if filepath.IsAbs(r) {
			if _, err := os.Stat(r); err != nil {
				out = append(out, r)
			}
			continue
		}
		if _, err := exec.LookPath(r); err != nil {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) serviceNames() []string {
	var out []string
	for n := range s.cfg.Services {
		out = append(out, n)
	}
	sort.Strings(out)
	if out == nil {
		return []string{"(none configured)"}
	}
	return out
}

func (s *Server) playbookNames() []string {
	var out []string
	for n := range s.cfg.Playbooks {
		out = append(out, n)
	}
	sort.Strings(out)
	if out == nil {
		return []string{"(none configured)"}
	}
	return out
}

var helpTopics = map[string]string{
	"exec": `exec runs ONE shell line (no newlines) inside Sentinel's sandbox: only the rw paths are writable, the r paths readable, credentials hidden, network as capabilities section=network says.
In allowlist mode every command in the line — in lists (&&, ||, ;), subshells, $(…), sh -c scripts, and what find -exec or xargs run — must be covered by an allowed_commands entry as whole words: "git" covers "git log -1", "systemctl status" covers "systemctl status nginx" but not "systemctl restart nginx", "ls" does not cover "lsof". The words an entry matches must be written out (no $VAR, globs or ~ there).
After a pipe, read-only filters need no entry: ` + strings.Join(filterNames(), ", ") + ` — without file operands or options that read or write files.
No NAME=value prefixes, no background jobs (&), no sudo. Redirections may only name files under the configured paths.
In strict mode the same entries apply, and a line is ONE plain command: no lists (; && ||), pipes, background jobs, subshells or groups, $( ) or backquotes, <( ), redirections, NAME=value prefixes or sh -c scripts (refused with class not-simple).
In unrestricted mode any line runs that Sentinel's policy does not deny — still inside the sandbox (writes only to the rw paths, credentials hidden, network as configured) and still audited.
In policy mode Sentinel's policy (with the person's own policy.toml) decides, then the person's remembered templates; what would need a person goes to them through the approval queue (sentinel console) and waits for their answer (at most 4 such questions of this server wait at once; one more is refused with class limit); with no one to ask it is refused with class no-one-to-ask.
The result is the output (cut at max_output_bytes) and [exit N].`,
	"files": `read, list and search need a path under any configured path (r or rw); edit, move, copy (its destination), delete, chmod and chown need an rw path.
Paths must be absolute. Each is canonicalised first — symlinks resolved, ".." collapsed the way the kernel does — and the result must lie under a configured path; a symlink that leads outside is refused. delete, move and chmod act on a symlink itself (chown refuses one, and a file with more than one hard link), and refuse one that points outside the rw paths.
Git dirs (a .git in any case, or any directory that is one however it is named) are read-only, and a directory holding one is not moved or deleted whole. Sentinel's own state (its state and config dirs, this server's config and audit) is never reachable.
delete, and copy or move with overwrite, keep what they remove or replace: the result names the backup.
read: offset and max_bytes page through big files. search: plain text (or regex=true), glob to pick file names.`,
	"edit": `edit takes path and either content (the whole file; creates it if missing) or old_string + new_string (old_string must occur exactly once unless replace_all).
The new content is validated first — validate=auto picks by extension (.json, .yaml/.yml, .toml, .go, .sh, .py, systemd units such as .service and .timer, and .conf under an nginx/ directory), or name json, yaml, toml, go, sh, python, nginx, systemd, none. python (compile only), nginx (nginx -t) and systemd (systemd-analyze verify) check a copy beside the file, inside the sandbox. Invalid content is refused and the file is left unchanged (rolled back).
The write is atomic (a new file renamed over the old). The previous content is kept as a backup whose path the result names.`,
	"refusals": `A refusal reads "refused [CLASS]: why (rule: RULE). Instead: what to do". Classes:
not-allowed (no allowed_commands entry covers a command), multi-line (more than one line), pipe-not-allowed (a pipeline into something neither allowed nor a read-only filter), path-not-allowed (outside the configured paths, or a symlink leading out), url-not-allowed (upload_file's SSRF guard), read-only-path (a write to an r path), op-disabled (the tool is switched off), not-simple (strict mode: more than one plain command), policy-deny and no-one-to-ask (policy mode), validation (an edit that did not parse; nothing changed), bad-input, bad-path, not-found, limit.`,
	"services": `service runs "systemctl ACTION UNIT" for a service and action the config lists (capabilities section=services). Nothing else reaches the service manager.`,
	"playbooks": `playbook NAME: a diagnostic playbook runs its commands in order in the sandbox and returns each output; a procedure playbook returns steps for you to follow with the other tools. capabilities playbook=NAME shows one in full.
A playbook may require programs or files (requires: refused when one is missing), run only when a condition command exits 0 (when: otherwise it is skipped and says why), and carry notes for you.`,
	"upload": `upload_file puts a file into the server's upload_base (capabilities shows it): path is a name relative to upload_base or an absolute path under it; content_base64 carries the bytes, or url names an http(s) URL the server fetches (only when upload_urls is on).
A URL is fetched only from a public unicast address: loopback, private, link-local (the cloud metadata service), CGNAT, multicast, unspecified and other special addresses are refused — checked on the address actually connected to, after DNS and after every redirect. Hosts written as numbers other than dotted decimal are refused. The size is capped at max_upload_bytes, as content_base64 (one request, made big enough for it; at most 64 MiB) or by URL. An existing file needs overwrite and is kept as a backup.`,
	"audit": `Every call — its arguments, the decision, the rule, exit status, bytes and duration — is one line in this server's audit journal, which the person reads with "sentinel show FILE".`,
}

func (s *Server) help(topic string) (string, error) {
	if topic == "" {
		var b strings.Builder
		b.WriteString("Sentinel MCP server. Tools:\n")
		for _, op := range Ops {
			state := ""
			if s.cfg.disabled(op) {
				state = " (disabled)"
			}
			fmt.Fprintf(&b, "  %s%s\n", op, state)
		}
		b.WriteString("Topics (help topic=NAME): exec, files, edit, upload, refusals, services, playbooks, audit.\n")
		b.WriteString("What the tools may do at one path: help path=/abs/path.\n")
		b.WriteString("What this server allows: capabilities (a summary), then capabilities section=… / path=… / playbook=….\n")
		return b.String(), nil
	}
	t := normalizeOp(topic)
	switch t {
	case "read", "list", "search", "move", "copy", "delete", "chmod", "chown", "paths":
		t = "files"
	case "service":
		t = "services"
	case "upload_file":
		t = "upload"
	case "playbook":
		t = "playbooks"
	case "help", "capabilities":
		return "help and capabilities answer a little at a time: call them with no arguments for an index, then ask for one topic, section, path or playbook.", nil
	}
	if text, ok := helpTopics[t]; ok {
		return text, nil
	}
	return "", &Refusal{Class: ClassNotFound, Reason: fmt.Sprintf("no help topic %q", topic), Use: "topics: exec, files, edit, upload, refusals, services, playbooks, audit"}
}

func (s *Server) capabilities(a capsArgs) (string, error) {
	c := s.cfg
	var b strings.Builder
	switch {
	case a.Path != "":
		abs, err := Canonical(a.Path)
		if err != nil {
			return "", &Refusal{Class: ClassBadPath, Reason: err.Error(), Use: "give an absolute path"}
		}
		pl, ok := c.place(abs)
		if !ok {
			return fmt.Sprintf("%s: not allowed (outside %s)", abs, c.rootList()), nil
		}
		ops := "read, list, search, exec cwd"
		if pl.Access == AccessReadWrite {
			ops += ", edit, move, copy, delete, chmod, chown; writable by exec"
		}
		return fmt.Sprintf("%s: under %s (access %s): %s", abs, pl.Root, pl.Access, ops), nil
	case a.Playbook != "":
		pb, ok := c.Playbooks[a.Playbook]
		if !ok {
			return "", &Refusal{Class: ClassNotFound, Rule: "playbooks", Reason: fmt.Sprintf("no playbook %q", a.Playbook), Use: "one of: " + strings.Join(s.playbookNames(), ", ")}
		}
		fmt.Fprintf(&b, "%s (%s): %s\n", a.Playbook, pb.Kind, pb.Description)
		if pb.When != "" {
			fmt.Fprintf(&b, "when: %s\n", pb.When)
		}
		if len(pb.Requires) > 0 {
			fmt.Fprintf(&b, "requires: %s\n", strings.Join(pb.Requires, ", "))
		}
		if pb.Notes != "" {
			fmt.Fprintf(&b, "notes: %s\n", pb.Notes)
		}
		for _, x := range append(append([]string(nil), pb.Commands...), pb.Steps...) {
			fmt.Fprintf(&b, "  - %s\n", x)
		}
		return b.String(), nil
	}
	switch a.Section {
	case "":
		fmt.Fprintf(&b, "exec_mode: %s; network: %s; sandbox: %s\n", c.ExecMode, c.Network, c.Sandbox)
		nr, nrw := 0, 0
		for _, p := range c.Paths {
			if p.Access == AccessReadWrite {
				nrw++
			} else {
				nr++
			}
		}
		fmt.Fprintf(&b, "paths: %d rw, %d r (section=paths)\n", nrw, nr)
		if c.ExecMode == ModeAllowlist || c.ExecMode == ModeStrict {
			fmt.Fprintf(&b, "allowed commands: %d (section=commands)\n", len(c.AllowedCommands))
		}
		fmt.Fprintf(&b, "services: %d; playbooks: %d (section=services, section=playbooks)\n", len(c.Services), len(c.Playbooks))
		if len(c.DisabledOps) > 0 {
			fmt.Fprintf(&b, "disabled tools: %s\n", strings.Join(c.DisabledOps, ", "))
		}
		if c.uploadBase != "" {
			fmt.Fprintf(&b, "upload_base: %s (urls: %v)\n", c.uploadBase, c.UploadURLs)
		}
		b.WriteString("limits: section=limits\n")
	case "paths":
		for _, p := range c.Paths {
			fmt.Fprintf(&b, "%s %s\n", p.Access, p.real)
		}
	case "commands":
		if c.ExecMode == ModeUnrestricted {
			b.WriteString("unrestricted mode: any line the policy does not deny runs, inside the sandbox, audited.\n")
		} else if c.ExecMode == ModePolicy {
			b.WriteString("policy mode: Sentinel's policy (with the person's policy.toml) and the person's remembered templates decide each line; an ask waits for the person in the approval queue (refused when no one can be asked).\n")
		} else {
			for _, x := range c.AllowedCommands {
				fmt.Fprintf(&b, "%s\n", x)
			}
			fmt.Fprintf(&b, "(after a pipe, without an entry: %s)\n", strings.Join(filterNames(), ", "))
		}
	case "services":
		for _, n := range s.serviceNames() {
			if sv, ok := c.Services[n]; ok {
				fmt.Fprintf(&b, "%s: %s\n", n, strings.Join(sv.Actions, ", "))
			} else {
				b.WriteString(n + "\n")
			}
		}
	case "playbooks":
		for _, n := range s.playbookNames() {
			if pb, ok := c.Playbooks[n]; ok {
				fmt.Fprintf(&b, "%s (%s): %s\n", n, pb.Kind, pb.Description)
			} else {
				b.WriteString(n + "\n")
			}
		}
	case "limits":
		l := c.Limits
		fmt.Fprintf(&b, "max_read_bytes %d; max_list_entries %d; max_search_results %d; exec_timeout %s; max_output_bytes %d; max_upload_bytes %d\n",
			l.MaxReadBytes, l.MaxListEntries, l.MaxSearchResults, l.ExecTimeoutDuration(), l.MaxOutputBytes, l.MaxUploadBytes)
	case "network":
		if c.Network == NetProxy {
			fmt.Fprintf(&b, "through Sentinel's proxy, to: %s\n", strings.Join(c.AllowHosts, ", "))
		} else {
			b.WriteString("none: commands have no network\n")
		}
	default:
		return "", &Refusal{Class: ClassNotFound, Reason: fmt.Sprintf("no section %q", a.Section), Use: "sections: paths, commands, services, playbooks, limits, network"}
	}
	return b.String(), nil
}
