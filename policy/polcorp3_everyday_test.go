package policy

import "testing"

// TestPolcorp1207EverydayClasses holds the everyday classes polcorp1207
// found asked inside the sandbox, in spellings the corpus does not have:
// loopback probes of database and RPC clients and httpie's GET
// (loopback2.go), the private temp dir as mkdir's and tar's scratch
// (tmpdir.go), and git fetch/pull of a configured remote through the
// sandbox (remotereads.go). Each is allowed with the sandbox on and not
// with it off (the loopback probes are allowed off too: dbloopback_off.go); their near neighbours that change something still ask.
// (curl's and httpie's GET of the loopback are allowed with it off too:
// TestSandboxOffClasses.)
func TestPolcorp1207EverydayClasses(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, l := range []string{ // allowed off too since off24 (dbloopback_off.go)
		"pg_isready -h 127.0.0.1 -p 5433 -q",
		"valkey-cli -h localhost -p 6380 info",
		"grpcurl -plaintext 127.0.0.1:9090 describe",
	} {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want allow", cx.Sandboxed, l, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	allowOn := []string{
		"mkdir -p /tmp/work/out",
		"tar -czf /tmp/snapshot.tgz src tests",
		"tar -rf /tmp/x.tar src", // the private /tmp is the coder's (privatetemp.go)
		"git pull --ff-only",
		"git fetch upstream main --depth=50",
	}
	for _, l := range allowOn {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	never := []string{
		"redis-cli -h 127.0.0.1 flushall",
		"redis-cli -h cache.example.com ping",
		"pg_isready -h db.example.com",
		"http :3000/api/users name=x",
		"http POST :3000/shutdown",
		"curl -X POST http://0.0.0.0:3000/shutdown",
		"mkdir /tmp",
		"mkdir -p " + ctx.Home + "/.config/x",
		"git fetch https://x.example/r.git",
		"git fetch ../other main",
		"git pull --upload-pack=x origin",
		"git fetch git@x.example:r.git",
	}
	for _, l := range never {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
}

// TestPolcorp1207ToolchainReads: listing a toolchain's installed programs
// are reads of places that hold no secrets;
// the credential files beside them still are not.
func TestPolcorp1207ToolchainReads(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, l := range []string{"ls ~/.cargo/bin", "ls ~/go/bin", "ls ~/.m2/repository/org"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision != Allow {
			t.Errorf("%q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, l := range []string{"cat ~/.cargo/credentials.toml", "cat ~/.m2/settings.xml", "cat /etc/shadow", "ls ~/.ssh"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
			t.Errorf("%q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
}
