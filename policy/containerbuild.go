package policy

import "strings"

// Container inspections inside the sandbox (issue 32, polcorp7
// everyday/docker), and a build that pushes is publishing.
//
// What the sandbox does with the container daemon today: its root is a
// fresh read-only tmpfs showing only the system locations (/usr, /etc,
// /lib…, never /var/run or /run), the profile's paths and a private /tmp
// and /dev, so /var/run/docker.sock and $XDG_RUNTIME_DIR/podman are not
// there; its network namespace has only its own loopback (a
// DOCKER_HOST=tcp://… reaches nothing but Sentinel's proxy, which lets
// only allowed hosts through); seccomp refuses new namespaces (rootless
// podman). So inside the sandbox the docker CLI reaches no daemon, and
// `docker inspect` (image, container, volume, network inspect), which
// only prints what a daemon knows, fails harmlessly there: allowed
// (RuleContainerSandboxed). With the sandbox off or in place the daemon
// is the person's own and inspect prints containers' environments: asked.
//
// Builds (docker build, buildx build, compose build) keep asking in every
// mode: the project's corpora (heldout2, polcorp1206) hold that a build's
// RUN steps execute in the host daemon, outside the sandbox, and the line
// does not show whether a daemon is reachable (a remote builder, a
// DOCKER_HOST the proxy allows). What starts containers (run, compose
// up/run/exec) asks as before. `docker build --push`, `buildx build
// --push`, `compose build --push`, an --output of type=registry or
// push=true, and --cache-to publish: denied in every mode, as docker push
// is.

// RuleContainerSandboxed allows a container inspection inside the
// sandbox, where no daemon is reachable.
const RuleContainerSandboxed = "container.sandboxed"

const containerSandboxedWhy = ": inside the sandbox no container daemon is reachable (no host socket is mounted and the network is the sandbox's own loopback), so it prints nothing of the person's and fails harmlessly"

// containerBuild wraps docker's and podman's handlers.
func containerBuild(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		form, opts, ok := containerForm(args)
		if ok && (form == "build" || form == "compose build") {
			if why := buildPublishes(opts); why != "" {
				x.add(Deny, "publish.docker-push", args[0].val+" "+form+" "+why+": publishing, as docker push is")
				return
			}
		}
		if !ok || !x.c.sandbox || x.c.inPlace {
			prev(x, args)
			return
		}
		for _, w := range args[1:] {
			if !w.static || w.pattern {
				prev(x, args)
				return
			}
		}
		if form != "inspect" || !inspectSafe(opts) {
			prev(x, args)
			return
		}
		x.add(Allow, RuleContainerSandboxed, args[0].val+" "+form+containerSandboxedWhy)
	}
}

// containerForm finds the subcommand: build (docker build, image build,
// buildx build, buildx b, builder build), compose build (docker compose
// build, docker-compose build), inspect (inspect, image|container|volume|
// network inspect). opts are the words after it. A global option before
// it (-H, --context, --config) makes it no form at all.
func containerForm(args []word) (string, []word, bool) {
	prog := baseName(args[0].val)
	rest := args[1:]
	if len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		return "", nil, false
	}
	words := func(n int) string {
		var s []string
		for i := 0; i < n && i < len(rest); i++ {
			s = append(s, rest[i].val)
		}
		return strings.Join(s, " ")
	}
	if prog == "docker-compose" || prog == "podman-compose" {
		if words(1) == "build" {
			return "compose build", rest, true
		}
		return "", nil, false
	}
	switch {
	case words(1) == "build":
		return "build", rest[1:], true
	case words(2) == "image build" || words(2) == "buildx build" || words(2) == "buildx b" || words(2) == "builder build":
		return "build", rest[2:], true
	case words(1) == "inspect":
		return "inspect", rest[1:], true
	case words(2) == "image inspect" || words(2) == "container inspect" || words(2) == "volume inspect" || words(2) == "network inspect":
		return "inspect", rest[2:], true
	case words(1) == "compose":
		// compose's own options before the verb: -f FILE, -p NAME, --profile P
		i := 1
		for i < len(rest) && strings.HasPrefix(rest[i].val, "-") {
			switch rest[i].val {
			case "-f", "--file", "-p", "--project-name", "--profile":
				i += 2
			default:
				return "", nil, false
			}
		}
		if i < len(rest) && rest[i].val == "build" {
			return "compose build", rest, true // the compose options are judged with the build's
		}
	}
	return "", nil, false
}

// buildPublishes says how a build's options push its image, or "".
func buildPublishes(opts []word) string {
	for i, w := range opts {
		v := w.val
		name, val, _ := strings.Cut(v, "=")
		switch {
		case v == "--push" || name == "--push" && val != "false":
			return "--push pushes the image it builds to a registry"
		case (v == "-o" || v == "--output") && i+1 < len(opts):
			val = opts[i+1].val
			fallthrough
		case name == "--output" || strings.HasPrefix(v, "-o") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			if name != "--output" && strings.HasPrefix(v, "-o") && len(v) > 2 {
				val = v[2:]
			}
			l := strings.ToLower(val)
			if strings.Contains(l, "type=registry") || strings.Contains(l, "push=true") {
				return "--output " + quoteShort(val) + " pushes the image it builds to a registry"
			}
		case v == "--cache-to" || name == "--cache-to":
			return "--cache-to exports the build cache to a registry or elsewhere"
		}
	}
	return ""
}

// inspectSafe: inspect [--format F] [--type T] [-s] NAME….
func inspectSafe(opts []word) bool {
	names := 0
	for i := 0; i < len(opts); i++ {
		v := opts[i].val
		name, _, hasVal := strings.Cut(v, "=")
		switch {
		case name == "-f" || name == "--format" || name == "--type":
			if !hasVal {
				i++
			}
		case v == "-s" || v == "--size":
		case strings.HasPrefix(v, "-"):
			return false
		default:
			names++
		}
	}
	return names > 0
}

// addContainerBuildHandlers wraps the container engines' handlers.
func addContainerBuildHandlers(handlers map[string]handler) {
	for _, n := range []string{"docker", "podman", "docker-compose", "podman-compose"} {
		handlers[n] = containerBuild(orUnknown(handlers[n]))
	}
}
