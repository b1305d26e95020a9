package main

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/config"
)

// TestEveryConfigKeyReachesTheSupervisor: each key of config.toml's
// [supervisor] section lands in the supervisor's Config under the same
// name, so a key added to the file format is never silently dropped.
func TestEveryConfigKeyReachesTheSupervisor(t *testing.T) {
	var file config.Supervisor
	everyKeyReaches(t, reflect.ValueOf(&file).Elem(), func() any { return supervisorConfig(file) }, "config.Supervisor")
	var role config.Role
	everyKeyReaches(t, reflect.ValueOf(&role).Elem(), func() any { return roleConfig(role) }, "config.Role")
}

// everyKeyReaches sets each key field of the section fv and checks
// convert's result has it under the same name; role sections (structs of
// type config.Role) are checked on their own.
func everyKeyReaches(t *testing.T, fv reflect.Value, convert func() any, what string) {
	t.Helper()
	isRole := func(i int) bool { return fv.Field(i).Type() == reflect.TypeOf(config.Role{}) }
	for i := 0; i < fv.NumField(); i++ {
		switch f := fv.Field(i); {
		case isRole(i):
		case f.Kind() == reflect.String:
			f.SetString(fmt.Sprintf("value-%d", i))
		case f.Kind() == reflect.Int:
			f.SetInt(int64(100 + i))
		default:
			t.Fatalf("%s.%s is a %s: teach this test and supervisorConfig about it", what, fv.Type().Field(i).Name, f.Kind())
		}
	}
	got := reflect.ValueOf(convert())
	for i := 0; i < fv.NumField(); i++ {
		if isRole(i) {
			continue
		}
		name := fv.Type().Field(i).Name
		g := got.FieldByName(name)
		if !g.IsValid() {
			t.Errorf("supervisor.Config has no field %s for [supervisor] %s", name, fv.Type().Field(i).Tag.Get("toml"))
			continue
		}
		if fmt.Sprint(g.Interface()) != fmt.Sprint(fv.Field(i).Interface()) {
			t.Errorf("[supervisor] %s: supervisor.Config.%s = %v, want %v", fv.Type().Field(i).Tag.Get("toml"), name, g.Interface(), fv.Field(i).Interface())
		}
	}
}
