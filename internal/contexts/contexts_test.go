package contexts

import (
	"reflect"
	"strings"
	"testing"
)

const secret = "Hunter2-s3cret"

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const example = `
current-context: dev
contexts:
  - name: dev
    bootstrap-servers: localhost:9092
  - name: prod
    bootstrap-servers: [b-1.prod:9096, "b-2.prod:9096,b-3.prod:9096"]
    command-config: prod.properties
    read-only: true
    color: red
    label: PROD
  - name: cloud
    bootstrap-servers: pkc-1.confluent.cloud:9092
    properties:
      security.protocol: SASL_SSL
      retries: 5
      sasl.jaas.config: x required password="` + secret + `";
    command-config: ~/kafka/cloud.properties
`

func TestParse(t *testing.T) {
	f, err := Parse([]byte(example), "/etc/offsettui/config.yaml", env("HOME", "/home/me"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Context{
		{Name: "dev", BootstrapServers: []string{"localhost:9092"}, Label: "dev"},
		{Name: "prod", BootstrapServers: []string{"b-1.prod:9096", "b-2.prod:9096", "b-3.prod:9096"},
			CommandConfig: "/etc/offsettui/prod.properties", ReadOnly: true, Color: "red", Label: "PROD"},
		{Name: "cloud", BootstrapServers: []string{"pkc-1.confluent.cloud:9092"}, CommandConfig: "/home/me/kafka/cloud.properties", Label: "cloud",
			Properties: map[string]string{"security.protocol": "SASL_SSL", "retries": "5", "sasl.jaas.config": `x required password="` + secret + `";`}},
	}
	if f.CurrentContext != "dev" || !reflect.DeepEqual(f.Contexts, want) {
		t.Fatalf("got %q %+v\nwant %+v", f.CurrentContext, f.Contexts, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown key (a typo must not be ignored)", "contexts:\n  - name: a\n    readonly: true\n", "line 3: field readonly not found"},
		{"no name", "contexts:\n  - bootstrap-servers: a:1\n", "contexts[0]: a context needs a name"},
		{"duplicate", "contexts:\n  - name: a\n  - name: a\n", `the name "a" is used twice`},
		{"current context missing", "current-context: b\ncontexts:\n  - name: a\n", `current-context "b" names no context`},
		{"bad color", "contexts:\n  - name: a\n    color: reddish\n", `color "reddish": use a name`},
		{"read-only not a bool, value hidden", "contexts:\n  - name: a\n    read-only: " + secret + "\n", "(value hidden)"},
		{"property value is a map", "contexts:\n  - name: a\n    properties:\n      x:\n        y: z\n", "line 5: a property value must be a single value"},
		{"servers is a map", "contexts:\n  - name: a\n    bootstrap-servers: {a: b}\n", "bootstrap-servers: want a string or a list"},
		{"not YAML", "contexts: [\n", "config.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), "config.yaml", env())
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), secret) {
				t.Fatalf("error %v, want one containing %q and no secret", err, tt.want)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	if got := DefaultPath(env("XDG_CONFIG_HOME", "/x", "HOME", "/h")); got != "/x/offsettui/config.yaml" {
		t.Errorf("XDG: %s", got)
	}
	if got := DefaultPath(env("HOME", "/h")); got != "/h/.config/offsettui/config.yaml" {
		t.Errorf("HOME: %s", got)
	}
}

// TestResolvePrecedence: flag > environment > context, for the context's name, its bootstrap
// servers and its client properties; read-only only ever adds up.
func TestResolvePrecedence(t *testing.T) {
	file, err := Parse([]byte(example), "/etc/offsettui/config.yaml", env("HOME", "/home/me"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		in            Inputs
		context       string // "" for none
		bootstrap     string
		commandConfig string
		readOnly      bool
		overrides     int
		wantErr       string
	}{
		{"current-context", Inputs{File: file}, "dev", "localhost:9092", "", false, 0, ""},
		{"OFFSETTUI_CONTEXT beats current-context", Inputs{File: file, EnvContext: "prod"}, "prod", "b-1.prod:9096,b-2.prod:9096,b-3.prod:9096", "/etc/offsettui/prod.properties", true, 0, ""},
		{"--context beats OFFSETTUI_CONTEXT", Inputs{File: file, EnvContext: "prod", FlagContext: "cloud"}, "cloud", "pkc-1.confluent.cloud:9092", "/home/me/kafka/cloud.properties", false, 0, ""},
		{"KAFKA_BOOTSTRAP_SERVERS beats the context", Inputs{File: file, EnvBootstrap: "env:1"}, "dev", "env:1", "", false, 1, ""},
		{"--bootstrap-server beats KAFKA_BOOTSTRAP_SERVERS", Inputs{File: file, EnvBootstrap: "env:1", FlagBootstrap: "flag:1, flag:2"}, "dev", "flag:1,flag:2", "", false, 1, ""},
		{"--command-config replaces the context's properties", Inputs{File: file, FlagContext: "prod", CommandConfig: "mine.properties"}, "prod", "b-1.prod:9096,b-2.prod:9096,b-3.prod:9096", "mine.properties", true, 1, ""},
		{"a read-only context stays read-only", Inputs{File: file, FlagContext: "prod", FlagBootstrap: "localhost:9092", CommandConfig: "x"}, "prod", "localhost:9092", "x", true, 2, ""},
		{"--read-only makes a context read-only", Inputs{File: file, ReadOnly: true}, "dev", "localhost:9092", "", true, 0, ""},
		{"no file, no context", Inputs{FlagBootstrap: "a:1"}, "", "a:1", "", false, 0, ""},
		{"--demo ignores the current context", Inputs{File: file, Demo: true, EnvContext: "prod"}, "", "", "", false, 0, ""},
		{"--demo with --context", Inputs{File: file, Demo: true, FlagContext: "prod"}, "", "", "", false, 0, "--demo and --context exclude each other"},
		{"unknown context", Inputs{File: file, FlagContext: "stage"}, "", "", "", false, 0, `--context: no context "stage" in /etc/offsettui/config.yaml (contexts: dev, prod, cloud)`},
		{"OFFSETTUI_CONTEXT without a file", Inputs{EnvContext: "prod"}, "", "", "", false, 0, `OFFSETTUI_CONTEXT: context "prod", but there is no config file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			name := ""
			if r.Context != nil {
				name = r.Context.Name
			}
			got := []any{name, strings.Join(r.Bootstrap, ","), r.CommandConfig, r.ReadOnly, len(r.Overrides)}
			want := []any{tt.context, tt.bootstrap, tt.commandConfig, tt.readOnly, tt.overrides}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %v, want %v (overrides %q)", got, want, r.Overrides)
			}
		})
	}
}

// FuzzParse: parsing any input never panics, and an error never quotes a value.
func FuzzParse(f *testing.F) {
	f.Add(example)
	f.Add("contexts:\n  - name: a\n    read-only: x\n")
	f.Add("current-context: [\n")
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range []string{in, "contexts:\n  - name: a\n    read-only: \x01" + in + "\n"} {
			_, err := Parse([]byte(s), "f.yaml", env())
			if err != nil && strings.Contains(err.Error(), "\x01") && !strings.Contains(in, "\x01") {
				t.Fatalf("error quotes the input: %q", err)
			}
		}
	})
}
