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
	fv := reflect.ValueOf(&file).Elem()
	for i := 0; i < fv.NumField(); i++ {
		switch f := fv.Field(i); f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprintf("value-%d", i))
		case reflect.Int:
			f.SetInt(int64(100 + i))
		default:
			t.Fatalf("config.Supervisor.%s is a %s: teach this test and supervisorConfig about it", fv.Type().Field(i).Name, f.Kind())
		}
	}
	got := reflect.ValueOf(supervisorConfig(file))
	for i := 0; i < fv.NumField(); i++ {
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
