package policy

import "strings"

// A container engine told to delete the data it keeps: `docker system
// prune -a --volumes`, `docker volume rm|prune`, `docker compose down -v`
// (the project's named volumes: its database), `docker rm -f $(docker ps
// -aq)` (every container, running or not). As with `redis-cli flushall`
// (dbwipe.go), the data lives outside the workspace and no checkpoint
// brings it back: denied. Every other use is judged as before.

// containerValued are the global and compose options that take a value
// as the next word.
var containerValued = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-c": true, "--context": true, "-H": true, "--host": true, "--config": true,
		"-l": true, "--log-level": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true,
		"-f": true, "--file": true, "-p": true, "--project-name": true, "--profile": true, "--env-file": true,
		"--project-directory": true, "--ansi": true, "--progress": true, "--parallel": true, "--url": true, "--connection": true}
}}

// addContainerWipes wraps the container engines' handlers.
func addContainerWipes(handlers map[string]handler) {
	for _, n := range []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose"} {
		handlers[n] = containerWipe(orUnknown(handlers[n]))
	}
}

// containerWipe denies the deleting verbs, then hands over to prev.
func containerWipe(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if why := containerWipes(args); why != "" {
			x.add(Deny, RuleDatabaseDrop, args[0].val+" "+why+", which no checkpoint restores")
			return
		}
		prev(x, args)
	}
}

// containerWipes says what a container engine's command line deletes, or "".
func containerWipes(args []word) string {
	var ops []string // the operands, in order, options dropped
	var opts []string
	for i := 1; i < len(args); i++ {
		v := args[i].val
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			opts = append(opts, v)
			if containerValued.get()[v] && len(ops) < 2 {
				i++ // a global or compose option's value
			}
			continue
		}
		ops = append(ops, v)
	}
	has := func(long string, short byte) bool {
		for _, o := range opts {
			if o == long || strings.HasPrefix(o, long+"=") && !strings.HasSuffix(o, "=false") {
				return true
			}
			if short != 0 && len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], short) >= 0 {
				return true
			}
		}
		return false
	}
	name := args[0].val
	if strings.HasSuffix(name, "-compose") {
		ops = append([]string{"compose"}, ops...)
	}
	verb := func(i int) string {
		if i < len(ops) {
			return ops[i]
		}
		return ""
	}
	switch verb(0) {
	case "system":
		if verb(1) == "prune" && (has("--all", 'a') || has("--volumes", 0)) {
			return "system prune deletes every unused image, container and volume"
		}
	case "volume":
		switch verb(1) {
		case "rm", "remove", "prune":
			return "volume " + verb(1) + " deletes the data in volumes"
		}
	case "compose":
		for _, o := range ops[1:] {
			if o == "down" && (has("--volumes", 'v')) {
				return "deletes the project's volumes (compose down -v)"
			}
		}
	case "container":
		if verb(1) == "rm" || verb(1) == "remove" {
			if forcedAll(args, has) {
				return "container rm -f deletes containers, running or not, that a substitution lists"
			}
		}
	case "rm":
		if forcedAll(args, has) {
			return "rm -f deletes containers, running or not, that a substitution lists"
		}
	}
	return ""
}

// forcedAll reports a forced removal of operands not known before it
// runs: docker rm -f $(docker ps -aq).
func forcedAll(args []word, has func(string, byte) bool) bool {
	if !has("--force", 'f') {
		return false
	}
	for _, a := range args[2:] {
		if !a.static && !strings.HasPrefix(a.val, "-") {
			return true
		}
	}
	return false
}
