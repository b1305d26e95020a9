package policy

import "strings"

// Container builds and inspections inside the sandbox (issue 32, polcorp7
// everyday/docker), and a build that pushes is publishing.
//
// The decision rests on what the sandbox does with the container daemon
// today: its root is a fresh read-only tmpfs showing only the system
// locations (/usr, /etc, /lib…, never /var/run or /run), the profile's
// paths and a private /tmp and /dev, so /var/run/docker.sock and
// $XDG_RUNTIME_DIR/podman are not there; its network namespace has only
// its own loopback (a DOCKER_HOST=tcp://… reaches nothing but Sentinel's
// proxy, which lets only allowed hosts through); seccomp refuses new
// namespaces (rootless podman's build). So inside the sandbox the docker
// CLI reaches no daemon: a build, an inspect or a compose build fails
// harmlessly, and were a daemon ever reachable, a build only runs the
// Dockerfile's steps in a container that mounts nothing of the host. These
// forms are allowed there (RuleContainerSandboxed), each with an option
// table that holds nothing that mounts, forwards or exports
// (--secret, --ssh, --allow, --output, --build-context, --cache-to,
// --network=host, a context or Dockerfile from stdin or a URL).
//
// The forms that start containers (run, compose up/run/exec, start) keep
// asking in every mode: a compose file's volumes (/:/host) are not on the
// line, and with a daemon they are the root-equivalent escape. With the
// sandbox off or in place the daemon is the person's own: everything
// asks, as before. `docker build --push`, `buildx build --push`, and an
// --output of type=registry or push=true publish the image: denied in every
// mode, as `docker push` is.

// RuleContainerSandboxed allows a container build or inspection inside
// the sandbox, where no daemon is reachable.
const RuleContainerSandboxed = "container.sandboxed"

const containerSandboxedWhy = ": inside the sandbox no container daemon is reachable (no host socket is mounted and the network is the sandbox's own loopback), so it fails harmlessly or builds from the workspace in a container that mounts nothing of the host"

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
		var reads []string
		switch form {
		case "build":
			reads, ok = buildOptionsSafe(opts)
		case "compose build":
			reads, ok = composeBuildSafe(opts)
		case "inspect":
			ok = inspectSafe(opts)
		default:
			ok = false
		}
		if !ok {
			prev(x, args)
			return
		}
		label := args[0].val + " " + form
		if strings.HasSuffix(args[0].val, "-compose") {
			label = args[0].val + " build"
		}
		x.add(Allow, RuleContainerSandboxed, label+containerSandboxedWhy)
		x.inWorkspace()
		for _, r := range reads {
			x.readStr(r)
		}
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

// buildOptionsSafe: docker build's options from its reference, each one
// that only names, tags or tunes the build; the context a workspace path.
// It returns the files the build reads.
func buildOptionsSafe(opts []word) ([]string, bool) {
	var reads []string
	context := 0
	for i := 0; i < len(opts); i++ {
		v := opts[i].val
		name, val, hasVal := strings.Cut(v, "=")
		if !strings.HasPrefix(v, "-") {
			if !workspaceRelative(v) && v != "." {
				return nil, false // a URL, a git repository, - (stdin), or a path elsewhere
			}
			context++
			reads = append(reads, v)
			continue
		}
		switch name {
		case "-q", "--quiet", "--load", "--no-cache", "--pull", "--rm", "--force-rm", "--squash", "--compress":
			if hasVal && val != "true" && val != "false" {
				return nil, false
			}
			continue
		case "-t", "--tag", "--target", "--build-arg", "--platform", "--progress", "--label", "--cache-from", "-f", "--file",
			"--network", "--shm-size", "--iidfile", "--metadata-file", "--provenance", "--sbom", "--no-cache-filter":
		default:
			return nil, false // --secret, --ssh, --allow, --output, --build-context, --add-host, --builder and the rest
		}
		if !hasVal {
			if i+1 >= len(opts) {
				return nil, false
			}
			i++
			val = opts[i].val
		}
		switch name {
		case "-f", "--file":
			if val == "-" || !workspaceRelative(val) {
				return nil, false // a Dockerfile from stdin is text nobody has seen
			}
			reads = append(reads, val)
		case "--network":
			if val != "default" && val != "none" {
				return nil, false
			}
		case "--iidfile", "--metadata-file":
			if !workspaceRelative(val) {
				return nil, false
			}
		case "--cache-from":
			if strings.Contains(val, "type=local") && !strings.Contains(val, "src=") {
				return nil, false
			}
			if _, src, ok := strings.Cut(val, "src="); ok && !workspaceRelative(strings.Split(src, ",")[0]) {
				return nil, false
			}
		}
	}
	return reads, context == 1
}

// composeBuildSafe: [-f FILE] [-p NAME] [--profile P] build [--no-cache]
// [--pull] [-q] [SERVICE…].
func composeBuildSafe(opts []word) ([]string, bool) {
	var reads []string
	seenBuild := false
	for i := 0; i < len(opts); i++ {
		v := opts[i].val
		switch {
		case v == "compose":
		case !seenBuild && (v == "-f" || v == "--file") && i+1 < len(opts):
			if !workspaceRelative(opts[i+1].val) {
				return nil, false
			}
			reads = append(reads, opts[i+1].val)
			i++
		case !seenBuild && (v == "-p" || v == "--project-name" || v == "--profile") && i+1 < len(opts):
			if !plainToken(opts[i+1].val) {
				return nil, false
			}
			i++
		case v == "build":
			seenBuild = true
		case seenBuild && (v == "--no-cache" || v == "--pull" || v == "-q" || v == "--quiet" || v == "--parallel"):
		case seenBuild && !strings.HasPrefix(v, "-") && plainToken(v):
		default:
			return nil, false // --build-arg, --ssh, --push, --builder and the rest
		}
	}
	return reads, seenBuild
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
