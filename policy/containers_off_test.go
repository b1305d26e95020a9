package policy

import "testing"

// TestContainerDevLoopAsksOff records a decision (issue 32, off27): with
// the sandbox off, docker and podman commands that build, start or enter
// containers keep asking, though a dev loop runs them daily.
//
// Why: access to the Docker daemon is root on the person's machine, and
// every one of these hands the daemon text the coder can write. A compose
// file or a `docker run` can mount / or the home (`-v /:/host`,
// `volumes: - ~/.ssh:/root/.ssh`), ask for `privileged: true`,
// `network_mode: host` or `pid: host`; a Dockerfile's RUN reaches the
// internet, and the build context sends the workspace (its .env too,
// without a .dockerignore) to the daemon; pulls use the person's registry
// credentials (~/.docker/config.json); a tag (`-t acme/api:dev`) replaces
// an image other projects on the same daemon use; a container bound to
// the host's ports or writing as root into a mounted workspace outlives
// the run and no checkpoint covers it. Judging a compose file well enough
// to tell a harmless `up -d db` from these would mean reading every file
// it includes, extends and interpolates, and the image it names is still
// code nobody on the line has seen. Rootless podman is not root, but it
// mounts the home as readily and pulls from the network as well. What is
// allowed off stays the reads that print state (`docker ps`, `docker
// compose ps`, `docker logs`, `docker images`); `compose down -v` is
// denied (containerwipe.go).
func TestContainerDevLoopAsksOff(t *testing.T) {
	off := testEnv(t)
	e := Default()
	for _, cmd := range []string{
		`docker build -t acme/api:dev .`,
		`docker build -f docker/Dockerfile.test -t api-test --target test .`,
		`docker buildx build --load -t web:ci .`,
		`docker compose build api`,
		`docker compose up -d db`,
		`docker compose run --rm api pytest`,
		`docker compose exec db psql -U postgres -c 'select 1'`,
		`docker run --rm -v $PWD:/app -w /app node:20 npm test`,
		`podman build -t x .`,
		`podman run --rm alpine echo hi`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision == Allow {
			t.Errorf("off: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{`docker ps`, `docker compose ps`, `docker compose logs api --tail 50`, `docker images`} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision != Allow {
			t.Errorf("off: %q: %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
