package main

import (
	"maps"
	"slices"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// toolConnection is how Kafka's tool reaches the cluster a command connected to, for a plan's
// equivalent command (docs/resets.md#the-equivalent-kafka-command): cluster, the addresses the
// undo command names too; the --command-config file of the run, else the context's file and
// the names of its inline properties (never their values). It follows the precedence of
// contexts.Resolve: --command-config replaces the context's properties as a whole, and a :ctx
// switch (onlyContext) ignores the run's connection flags.
func toolConnection(c common, ctx *contexts.Context, cluster string) plan.ToolConnection {
	t := plan.ToolConnection{Bootstrap: cluster}
	if c.commandConfig != "" && !c.onlyContext {
		t.CommandConfig = absPath(c.commandConfig)
		return t
	}
	if ctx == nil {
		return t
	}
	t.CommandConfig = ctx.CommandConfig
	if len(ctx.Properties) > 0 {
		t.InlineContext, t.InlineKeys = ctx.Name, slices.Sorted(maps.Keys(ctx.Properties))
	}
	return t
}

// toolConnection is the session's toolConnection, once connected (a plan is made only then).
func (l *lazyClient) toolConnection() plan.ToolConnection {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess == nil {
		return toolConnection(l.c, nil, l.c.bootstrap)
	}
	return toolConnection(l.c, l.sess.context, l.sess.client.Bootstrap())
}
