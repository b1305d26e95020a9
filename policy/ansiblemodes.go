package policy

import "strings"

// Ansible's modes (issue 32, polcorp16). ansible-playbook is denied as a
// change to remote machines (publish.ansible), and --check does not make
// it safe: a task marked check_mode: false runs for real under --check, and
// every task reaches the inventory's hosts with the person's credentials.
// Two modes run no task and reach no host: --syntax-check parses the
// playbook, and --list-tasks, --list-hosts and --list-tags print what a run
// would do. They read the project's playbooks and inventory (an inventory
// script is the project's code), so they are allowed inside the sandbox and
// ask with it off or in place, as a project program does; combined with
// --check, -C or a playbook run they keep the deny.
//
// The ad-hoc `ansible PATTERN -m MODULE -a ARGS` runs one module on the
// hosts: a module that changes a host (command, the default when -a is
// given, shell, raw, script, file, copy and the rest below) is the same
// change ansible-playbook makes, denied; ping, setup, stat and debug keep
// the ask of a remote tool (net.tool).

// ansibleListModes are ansible-playbook's options that run no task.
var ansibleListModes = wordSet{words: []string{"--syntax-check", "--list-tasks", "--list-hosts", "--list-tags"}}

// ansibleReadModules are ad-hoc modules that only read a host.
var ansibleReadModules = wordSet{words: []string{"ping", "setup", "gather_facts", "stat", "debug",
	"ansible.builtin.ping", "ansible.builtin.setup", "ansible.builtin.gather_facts", "ansible.builtin.stat", "ansible.builtin.debug"}}

// ansibleModes judges ansible-playbook's list modes and ansible's ad-hoc
// modules; false leaves the line to its other rules.
func (x *cmdCtx) ansibleModes(prog string, args []word) bool {
	switch prog {
	case "ansible-playbook":
		list := false
		for _, w := range args[1:] {
			name, _, _ := strings.Cut(w.val, "=")
			switch {
			case !w.static || w.brace:
				return false
			case ansibleListModes.has(name):
				list = true
			case name == "--check" || name == "-C":
				return false
			}
		}
		if !list {
			return false
		}
		for i := 1; i < len(args); i++ {
			v := args[i].val
			if (v == "-i" || v == "--inventory" || v == "-e" || v == "--extra-vars" || v == "--vault-password-file") && i+1 < len(args) {
				if v == "-e" || v == "--extra-vars" {
					if strings.HasPrefix(args[i+1].val, "@") {
						x.readStr(args[i+1].val[1:])
					}
				} else if !strings.Contains(args[i+1].val, ",") {
					x.read(args[i+1])
				}
				i++
				continue
			}
			if !strings.HasPrefix(v, "-") {
				x.read(args[i])
			}
		}
		if !x.c.sandbox || x.c.inPlace {
			x.add(Ask, RuleBuildProject, "ansible-playbook "+quoteShort(listModeOf(args))+" runs the project's inventory and playbooks outside the sandbox")
			return true
		}
		x.add(Allow, RuleSandboxCode, "ansible-playbook "+quoteShort(listModeOf(args))+" runs no task and reaches no host")
		return true
	case "ansible":
		module, hasArgs := "", false
		for i := 1; i < len(args); i++ {
			v := args[i].val
			switch {
			case (v == "-m" || v == "--module-name") && i+1 < len(args):
				module = args[i+1].val
				if !args[i+1].static {
					module = "?"
				}
				i++
			case strings.HasPrefix(v, "--module-name="):
				module = strings.TrimPrefix(v, "--module-name=")
			case strings.HasPrefix(v, "-m") && len(v) > 2 && !strings.HasPrefix(v, "--"):
				module = v[2:]
			case v == "-a" || v == "--args" || strings.HasPrefix(v, "--args="):
				hasArgs = true
			}
		}
		if module == "" && !hasArgs || ansibleReadModules.has(module) {
			return false
		}
		if module == "" {
			module = "command"
		}
		x.add(Deny, "publish.ansible", "ansible -m "+quoteShort(module)+" changes remote machines")
		return true
	}
	return false
}

// listModeOf names the list or syntax mode on an ansible-playbook line.
func listModeOf(args []word) string {
	for _, w := range args {
		if name, _, _ := strings.Cut(w.val, "="); ansibleListModes.has(name) {
			return name
		}
	}
	return ""
}
