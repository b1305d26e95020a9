package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/supervisor"
)

// configShowCommand is `sentinel config show` (also plain `sentinel
// config`): the effective configuration, each value with its source.
func configShowCommand(project *string) *cobra.Command {
	var sup supervisorFlags
	var asJSON, all bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration with the source of each value (flag, env, project, user, default)",
		Example: `  sentinel config show
  sentinel config show --supervisor openai --supervisor-model llama3.1
  sentinel config show --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root, err := configRoot(c.Context(), *project)
			if err != nil {
				return err
			}
			settings, err := config.Explain(root)
			if err != nil {
				return err
			}
			settings = effectiveSettings(settings, sup, c.Flags().Changed, os.Getenv)
			if asJSON {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(settings)
			}
			if all {
				printSettings(c.OutOrStdout(), settings)
				return nil
			}
			var b strings.Builder
			printSetSettings(&b, settings)
			printTemplateNames(&b, root)
			_, err = io.WriteString(c.OutOrStdout(), fitLines(b.String(), helpWidth()))
			return err
		},
	}
	sup.register(show.Flags())
	show.Flags().BoolVar(&asJSON, "json", false, "print the settings as JSON")
	show.Flags().BoolVar(&all, "all", false, "list every key, the unset ones too")
	return show
}

// effectiveSettings lays the environment, the flags and the defaults over
// what the files say, in the order `sentinel run` applies them (see
// supervisorFlags.config and supervisor.Config.Resolve).
func effectiveSettings(files []config.Setting, f supervisorFlags, changed func(string) bool, getenv func(string) string) []config.Setting {
	by := map[string]*config.Setting{}
	for i := range files {
		by[files[i].Key] = &files[i]
	}
	set := func(key, value, source string) {
		if s := by[key]; s != nil && value != "" {
			s.Value, s.Source = value, source
		}
	}
	fallback := func(key, value string) {
		if s := by[key]; s != nil && s.Value == "" && value != "" {
			s.Value, s.Source = value, "default"
		}
	}
	if changed("supervisor") {
		// A backend on the command line keeps the files' other keys, as
		// a run does.
		set("supervisor.backend", f.backend, "flag --supervisor")
	}
	set("supervisor.base_url", getenv(supervisor.EnvBaseURL), "env "+supervisor.EnvBaseURL)
	set("supervisor.model", getenv(supervisor.EnvModel), "env "+supervisor.EnvModel)
	if by["supervisor.prompts"] != nil && by["supervisor.prompts"].Value == "" {
		set("supervisor.prompts", getenv(supervisor.EnvPrompts), "env "+supervisor.EnvPrompts)
	}
	if changed("supervisor-model") {
		set("supervisor.model", f.model, "flag --supervisor-model")
	}
	if changed("supervisor-url") {
		set("supervisor.base_url", f.baseURL, "flag --supervisor-url")
	}
	if changed("prompts") {
		set("supervisor.prompts", f.prompts, "flag --prompts")
	}
	if changed("supervisor-timeout") && f.timeout > 0 {
		set("supervisor.timeout", f.timeout.String(), "flag --supervisor-timeout")
	}
	fallback("coder", "claude")
	fallback("theme", "auto")
	fallback("verify.timeout", "10m0s")
	backendDefaults := func(prefix string) {
		backend := by[prefix+"backend"].Value
		if backend == "" {
			return
		}
		fallback(prefix+"timeout", "60s")
		switch supervisor.Kind(backend) {
		case supervisor.KindAnthropic:
			fallback(prefix+"model", supervisor.DefaultAnthropicModel)
			fallback(prefix+"api_key_env", supervisor.EnvAPIKey+", else ANTHROPIC_API_KEY")
		case supervisor.KindOpenAI:
			fallback(prefix+"model", supervisor.DefaultOpenAIModel)
			fallback(prefix+"api_key_env", supervisor.EnvAPIKey+", else OPENAI_API_KEY")
		}
	}
	backendDefaults("supervisor.")
	// Each role: a section naming a backend stands alone (with that
	// backend's defaults); otherwise what it leaves unset is [supervisor]'s,
	// flags, environment and defaults included (supervisor.Config.ForRole).
	for _, name := range config.RoleNames {
		prefix := "supervisor." + name + "."
		if b := by[prefix+"backend"]; b != nil && b.Value != "" {
			backendDefaults(prefix)
			continue
		}
		for _, k := range config.RoleKeys {
			s, base := by[prefix+k], by["supervisor."+k]
			if s != nil && base != nil && s.Value == "" && base.Value != "" {
				s.Value, s.Source = base.Value, "supervisor."+k+" (inherited)"
			}
		}
	}
	return files
}

func printSettings(out io.Writer, settings []config.Setting) {
	// A note (a value an untrusted file was refused) goes on a line of
	// its own under its key, outside the columns: in a cell it made the
	// whole table as wide as its path (issue 37.12: 160 columns).
	type row struct{ key, value, source, note string }
	rows := []row{{key: "KEY", value: "VALUE", source: "SOURCE"}}
	kw, vw := 0, 0
	for _, s := range settings {
		v, src := s.Value, s.Source
		if v == "" {
			v, src = "-", "unset"
		}
		// A project file is the coder's to write: every value is shown
		// through the one sanitizer.
		r := row{s.Key, textsafe.Line(v), textsafe.Line(src), ""}
		if s.Note != "" {
			r.note = textsafe.Line(strings.TrimSpace(s.Note))
		}
		rows = append(rows, r)
	}
	for _, r := range rows {
		kw, vw = max(kw, ansi.StringWidth(r.key)), max(vw, ansi.StringWidth(r.value))
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w-ansi.StringWidth(s)+2) }
	for _, r := range rows {
		fmt.Fprintln(out, pad(r.key, kw)+pad(r.value, vw)+r.source)
		if r.note != "" {
			fmt.Fprintf(out, "  (%s)\n", r.note)
		}
	}
}
