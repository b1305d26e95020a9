// Package demo is Sentinel's built-in scripted coder: it reads a scenario
// (TOML) and behaves like a real agent through the same paths one uses — it
// prints messages on its terminal, asks the run's broker for approval of
// every shell command, file write or edit and network host through the same
// client the real agents' hook commands use, runs what it was allowed in its
// workspace, and reads steering messages from its terminal input.
//
// It must not decide anything itself: every action waits for the broker.
package demo

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

//go:embed default.toml
var defaultScenario []byte

// Scenario is a scripted coder's whole behaviour.
type Scenario struct {
	Name  string  `toml:"name"`
	About string  `toml:"about"`
	Pace  string  `toml:"pace"` // pause between steps, e.g. "300ms"; default none
	Steps []Step  `toml:"steps"`
	Steer []Steer `toml:"steer"`
	pace  time.Duration
}

// Step is one thing the coder does. Exactly one action field is set.
type Step struct {
	ID      string `toml:"id"`
	Say     string `toml:"say"`     // print a message
	Shell   string `toml:"shell"`   // ask, then run with sh -c in the workspace
	Write   string `toml:"write"`   // ask, then write Content to this path
	Content string `toml:"content"` // for write
	Edit    string `toml:"edit"`    // ask, then replace Old with New in this file
	Old     string `toml:"old"`
	New     string `toml:"new"`
	Net     string `toml:"net"`        // ask for a network host[:port]
	Done    string `toml:"done"`       // finish with this summary
	Fail    int    `toml:"fail"`       // finish with this exit status
	Await   string `toml:"await"`      // wait up to this long for a steering message
	Steered bool   `toml:"if_steered"` // only when a steering message has arrived
}

// Steer is a steering message the scenario's stand-in supervisor sends once
// the named step has been decided. The runner reads these, not the coder.
type Steer struct {
	After string `toml:"after"`
	Text  string `toml:"text"`
}

// Load reads a scenario file; an empty path is the built-in default.
func Load(path string) (*Scenario, error) {
	src, name := defaultScenario, "built-in default scenario"
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("scenario: %w", err)
		}
		src, name = b, path
	}
	return Parse(src, name)
}

// Parse decodes and checks a scenario; errors name the file, line and field.
func Parse(src []byte, name string) (*Scenario, error) {
	var s Scenario
	md, err := toml.Decode(string(src), &s)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d: %s (fix the TOML syntax)", name, perr.Position.Line, perr.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown field %q (see the built-in scenario for the fields a step takes)", name, und[0].String())
	}
	if s.Pace != "" {
		if s.pace, err = time.ParseDuration(s.Pace); err != nil {
			return nil, fmt.Errorf("%s: pace %q: %w", name, s.Pace, err)
		}
	}
	if len(s.Steps) == 0 {
		return nil, fmt.Errorf("%s: no [[steps]] (a scenario needs at least one step)", name)
	}
	ids := map[string]bool{}
	for i, st := range s.Steps {
		n := 0
		for _, set := range []bool{st.Say != "", st.Shell != "", st.Write != "", st.Edit != "", st.Net != "", st.Done != "", st.Fail != 0, st.Await != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			return nil, fmt.Errorf("%s: step %d: want exactly one of say, shell, write, edit, net, await, done, fail (found %d)", name, i+1, n)
		}
		if st.Await != "" {
			if _, err := time.ParseDuration(st.Await); err != nil {
				return nil, fmt.Errorf("%s: step %d: await %q: %w", name, i+1, st.Await, err)
			}
		}
		if st.Edit != "" && st.Old == "" {
			return nil, fmt.Errorf("%s: step %d: edit needs old (the text to replace)", name, i+1)
		}
		if st.ID != "" {
			if ids[st.ID] {
				return nil, fmt.Errorf("%s: step %d: duplicate id %q", name, i+1, st.ID)
			}
			ids[st.ID] = true
		}
	}
	for i, st := range s.Steer {
		if !ids[st.After] {
			return nil, fmt.Errorf("%s: steer %d: after = %q names no step id", name, i+1, st.After)
		}
		if strings.TrimSpace(st.Text) == "" {
			return nil, fmt.Errorf("%s: steer %d: empty text", name, i+1)
		}
	}
	return &s, nil
}
