package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/supervisor"
)

// roleConfig is a role section of config.toml ([supervisor.judge] …) as
// the supervisor package's Config, key by key.
func roleConfig(r config.Role) supervisor.Config {
	return supervisor.Config{
		Backend:   supervisor.Kind(r.Backend),
		BaseURL:   r.BaseURL,
		Model:     r.Model,
		APIKeyEnv: r.APIKeyEnv,
		Timeout:   r.Timeout,
		MaxTokens: r.MaxTokens,
		Command:   r.Command,
	}
}

// roleModel is one model the supervisor's roles use: the roles that share
// it, its configuration and, once built, its backend and turn bound.
type roleModel struct {
	roles   []supervisor.Role
	cfg     supervisor.Config
	backend supervisor.Backend
	timeout time.Duration
}

// who names the roles that use m in messages: "" when every role does (the
// plain [supervisor] case reads as before), else "the judge role's model".
func (m roleModel) who() string {
	if len(m.roles) == len(supervisor.Roles) {
		return ""
	}
	names := make([]string, len(m.roles))
	for i, r := range m.roles {
		names[i] = string(r)
	}
	if len(names) == 1 {
		return "the " + names[0] + " role's model"
	}
	return "the " + strings.Join(names, ", ") + " roles' model"
}

// wrap prefixes err with who uses m.
func (m roleModel) wrap(err error) error {
	if w := m.who(); w != "" {
		return fmt.Errorf("%s: %w", w, err)
	}
	return err
}

// roleModels are the distinct models of the roles, over the resolved base
// configuration: each role whose section sets something gets
// base.ForRole(section); roles with the same configuration share one model,
// in the order of supervisor.Roles.
func roleModels(base supervisor.Config, file config.Supervisor, getenv func(string) string) []roleModel {
	var out []roleModel
	for _, r := range supervisor.Roles {
		cfg := base
		if sec := *file.Role(string(r)); !sec.IsZero() {
			cfg = base.ForRole(roleConfig(sec), getenv)
		}
		found := false
		for i := range out {
			if reflect.DeepEqual(out[i].cfg, cfg) {
				out[i].roles = append(out[i].roles, r)
				found = true
				break
			}
		}
		if !found {
			out = append(out, roleModel{roles: []supervisor.Role{r}, cfg: cfg})
		}
	}
	return out
}

// buildRoleModels builds each model's backend and turn bound; an error
// names the roles of the model that could not be built.
func buildRoleModels(models []roleModel) error {
	for i := range models {
		m := &models[i]
		t, err := m.cfg.TurnTimeout()
		if err != nil {
			return m.wrap(err)
		}
		b, err := supervisor.New(m.cfg)
		if err != nil {
			return m.wrap(err)
		}
		m.backend, m.timeout = b, t
	}
	return nil
}

// checkRoleModels asks every model the probe turn, all of them; ok are the
// models that answered, and the error names each role whose model did not.
func checkRoleModels(ctx context.Context, models []roleModel, prompts *supervisor.Prompts) (ok []roleModel, err error) {
	var msgs []string
	for _, m := range models {
		if err := supervisor.CheckWith(ctx, m.backend, prompts, m.timeout); err != nil {
			msgs = append(msgs, m.wrap(err).Error())
			continue
		}
		ok = append(ok, m)
	}
	if len(msgs) > 0 {
		return ok, errors.New(strings.Join(msgs, "; "))
	}
	return ok, nil
}

// supervisorOptions are the models as the supervisor's Options: the model
// every role shares as Backend, else a model per role.
func supervisorOptions(models []roleModel) supervisor.Options {
	o := supervisor.Options{Roles: map[supervisor.Role]supervisor.RoleModel{}}
	for _, m := range models {
		for _, r := range m.roles {
			o.Roles[r] = supervisor.RoleModel{Backend: m.backend, Timeout: m.timeout}
		}
		if o.Backend == nil {
			o.Backend, o.Timeout = m.backend, m.timeout
		}
	}
	return o
}
