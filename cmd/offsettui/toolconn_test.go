package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// TestToolConnection: Kafka's command reads the client properties the run connected with, by
// contexts.Resolve's precedence: --command-config replaces the context's (a :ctx switch ignores
// the flag); a context gives its file and the names of its inline properties, never values.
func TestToolConnection(t *testing.T) {
	prod := &contexts.Context{Name: "prod", CommandConfig: "/etc/kafka/prod.properties",
		Properties: map[string]string{"sasl.jaas.config": "… password=\"s3cret\";", "security.protocol": "SASL_SSL"}}
	flagFile, err := filepath.Abs("client.properties")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		c    common
		ctx  *contexts.Context
		want plan.ToolConnection
	}{
		{"no properties", common{}, nil, plan.ToolConnection{Bootstrap: "b:9092"}},
		{"--command-config, made absolute", common{commandConfig: "client.properties"}, nil,
			plan.ToolConnection{Bootstrap: "b:9092", CommandConfig: flagFile}},
		{"--command-config over the context's", common{commandConfig: "client.properties"}, prod,
			plan.ToolConnection{Bootstrap: "b:9092", CommandConfig: flagFile}},
		{"the context's file and inline keys", common{}, prod,
			plan.ToolConnection{Bootstrap: "b:9092", CommandConfig: "/etc/kafka/prod.properties", InlineContext: "prod",
				InlineKeys: []string{"sasl.jaas.config", "security.protocol"}}},
		{":ctx ignores the run's --command-config", common{commandConfig: "client.properties", onlyContext: true}, &contexts.Context{Name: "dev"},
			plan.ToolConnection{Bootstrap: "b:9092"}},
	}
	for _, c := range cases {
		if got := toolConnection(c.c, c.ctx, "b:9092"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
