package policy

import "testing"

// TestMixDepsCompileIsTheBuild (off30): `mix deps.compile` compiles the
// dependencies already fetched into deps/ (it fetches nothing: a missing
// one is an error that names deps.get), which `mix compile` does anyway
// before the project's own code, and `mix compile` is allowed off. It was
// judged as an install and asked off (polcorp14). deps.get, deps.update
// and a line that wrote first still ask off.
func TestMixDepsCompileIsTheBuild(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{"mix deps.compile", Allow, Allow},
		{"bash -lc 'mix deps.compile'", Allow, Allow},
		{"MIX_ENV=test mix deps.compile", Allow, Allow},
		{"mix compile", Allow, Allow},
		{"mix deps.get", Allow, Ask},
		{"mix deps.update --all", Allow, Ask},
	})
}
