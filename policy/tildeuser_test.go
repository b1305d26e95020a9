package policy

import "testing"

// TestTildeUserFilterValues: ~NAME as the value of a test runner's filter
// option (rspec --tag ~slow, RSpec's negation) is the text the runner
// matches, allowed as --tag=~slow is, through bundle exec, npx, python -m
// and wrappers; ~NAME anywhere it may be a path still asks, and a ~NAME
// bash expands after NAME= or : in an argument (dd if=~bob/x) is not a
// workspace path (issue 32, pol23).
func TestTildeUserFilterValues(t *testing.T) {
	checkOnOff(t, []onOff{
		{"bundle exec rspec --tag ~slow", Allow, Allow},
		{"rspec --tag ~slow", Allow, Allow},
		{"rspec -t ~slow", Allow, Allow},
		{"bundle exec rspec -t ~slow spec/models", Allow, Allow},
		{"bundle exec rspec --tag ~slow --tag ~js", Allow, Allow},
		{"bundle exec rspec --tag ~slow:true", Allow, Allow},
		{"bundle exec rspec --tag=~slow", Allow, Allow},
		{"timeout 600 bundle exec rspec --tag ~slow", Allow, Allow},
		{"cd src && bundle exec rspec --tag ~slow", Allow, Allow},
		{"bash -lc 'bundle exec rspec --tag ~slow'", Allow, Allow},
		{"rspec --example ~foo", Allow, Allow},
		{"cucumber --tags ~@wip", Allow, Allow},
		{"cucumber -t ~wip", Allow, Allow},
		{"pytest -k ~slow", Allow, Allow},
		{"python -m pytest -m ~integration", Allow, Allow},
		// Not a filter option's value: it may be a path.
		{"rspec ~slow", Ask, Ask},
		{"rspec --tag ~slow ~root", Ask, Ask},
		{"rspec --format ~root", Ask, Ask},
		{"bundle exec rspec --out ~root/x", Ask, Ask},
		{"rm -rf -- rspec --tag ~root", Ask, Ask},
		{"cat ~root/.ssh/id_rsa", Ask, Ask},
		{"cp -r ~bob ./x", Ask, Ask},
		{"grep -r KEY ~bob", Ask, Ask},
		// bash expands ~NAME after NAME= and after : in an argument.
		{"dd if=~bob/.bash_history of=copy.txt", Ask, Ask},
		{"dd if=~root/notes.txt of=copy.txt", Ask, Ask},
		{"dd if=x of=a:~bob/y", Ask, Ask},
		{"dd if=x.txt of=y.txt", Allow, Allow},
	})
}
