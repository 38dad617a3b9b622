package main

import (
	"context"
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/mcpserver"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/serve"
	"github.com/spf13/cobra"
)

// newMCPCmd is `offsettui mcp`: an MCP server over stdin and stdout for one cluster, chosen
// as every command chooses it (docs/api.md). It ends when the client closes stdin, or on
// SIGINT or SIGTERM (exit 0).
func newMCPCmd() *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "an MCP server over stdio for agents: read, check and plan, never write",
		Long: "A Model Context Protocol server over stdin and stdout for one cluster: the tools list_groups,\n" +
			"describe_group, check_group, explain_status and plan_reset, plan_delete_offsets, plan_delete_group,\n" +
			"plan_copy answer the JSON of describe, check and the dry runs of reset (docs/api.md). No tool\n" +
			"writes to Kafka; a plan tool's plan-out writes a plan file, which a person applies with\n" +
			"offsettui apply FILE.",
		Example: "  offsettui mcp --context prod --read-only\n" +
			"  claude mcp add offsettui -- offsettui mcp --bootstrap-server kafka:9092",
	}
	fs := cmd.Flags()
	c.noOutput = true
	c.register(fs)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		s, err := c.connectOrFail(ctx, cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		defer s.close()
		cl := &directCluster{c: c, access: s.access, client: s.client, name: s.contextName(),
			tool: func() plan.ToolConnection { return toolConnection(c, s.context, s.client.Bootstrap()) }}
		author := &reset.Service{ClusterName: s.client.Bootstrap}
		server := mcpserver.New(mcpserver.Options{Cluster: cl.named, RiskWindow: c.riskWindowD, Version: versionText(),
			WritePlan: func(p plan.Plan, path string) (plan.Plan, error) {
				return reset.WritePlanFile(absPath(path), p, author.Author("offsettui mcp"))
			}})
		if err := mcpserver.RunStdio(ctx, server, cmd.InOrStdin(), cmd.OutOrStdout()); err != nil && ctx.Err() == nil {
			return failure(err)
		}
		return nil
	}
	return cmd
}

// directCluster is a cluster the MCP tools read directly, as describe, check and the dry
// runs of reset do. It holds the client only to read: its plans are made by a
// reset.Planner on a planReader.
type directCluster struct {
	c      common
	access writeAccess // its session's: a plan says whether --execute could write it
	client *kafka.Client
	name   string // the context's name, "" without one
	// tool is how Kafka's tool reaches this cluster, for a plan's equivalent command.
	tool func() plan.ToolConnection
}

// named is the cluster a tool call names: this one, by its context's name or none.
func (d *directCluster) named(name string) (mcpserver.Cluster, error) {
	if name != "" && name != d.name {
		return nil, fmt.Errorf("context %q: this server reads context %q only (offsettui mcp --context NAME reads another)", name, d.name)
	}
	return d, nil
}

// Describe implements mcpserver.Cluster as describe reads.
func (d *directCluster) Describe(ctx context.Context, groups, topics []string) (model.Snapshot, error) {
	return d.client.Snapshot(ctx, d.c.withCommitLog(model.Query{Groups: groups, Topics: topics, RiskWindow: d.c.riskWindowD,
		FetchBudget: model.DefaultFetchBudget}))
}

// Check implements mcpserver.Cluster as check reads and judges (cmd/offsettui/check.go).
func (d *directCluster) Check(ctx context.Context, group string, opts check.Options) (check.Result, error) {
	opts.RequireCommitTimes = d.c.commitLog == "on"
	q := d.c.withCommitLog(model.Query{Groups: []string{group}, Topics: opts.Topics, WholeTopics: len(opts.Topics) > 0,
		RiskWindow: d.c.riskWindowD, FetchBudget: model.DefaultFetchBudget})
	snap, err := d.client.Snapshot(ctx, q)
	if err != nil {
		return check.Unread(group, opts, time.Now(), "cannot read the cluster: "+err.Error()), nil
	}
	return check.Check(snap, group, opts), nil
}

// Plan implements mcpserver.Cluster as reset plans without --execute.
func (d *directCluster) Plan(ctx context.Context, r mcpserver.PlanRequest) (plan.Plan, error) {
	return planOnly(ctx, planReader{d.client}, d.c, d.access, d.tool, r)
}

// planOnly makes the plan of r on a reader, with the connection's write access, the
// command's risk window and the cluster's connection for Kafka's command (tool):
// reset.Planner, which has no way to write.
func planOnly(ctx context.Context, r reset.Reader, c common, access writeAccess, tool func() plan.ToolConnection, req mcpserver.PlanRequest) (plan.Plan, error) {
	p := reset.Planner{Cluster: r, ReadOnly: access.readOnly(), AssumeReset: req.AssumeReset, AllowNewGroup: req.AllowNewGroup, RiskWindow: c.riskWindowD,
		Tool: tool}
	return p.Plan(ctx, req.Group, req.Scope, req.Strategy)
}

// planReader is the part of a Kafka client a plan reads: nothing that writes. It is all a
// plan made for offsettui mcp is given.
type planReader struct{ client planSource }

// planSource is what planReader reads from: *kafka.Client, or a serve cluster's
// connection made on first use.
type planSource interface {
	reset.Reader
	reset.CommitHistory
}

// ReadPlanInput implements reset.Reader.
func (p planReader) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	return p.client.ReadPlanInput(ctx, group, topics, at)
}

// TargetTimestamps implements reset.Reader.
func (p planReader) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	return p.client.TargetTimestamps(ctx, want, budget)
}

// ShareUnwritable implements reset.Reader.
func (p planReader) ShareUnwritable(ctx context.Context, group string) string {
	return p.client.ShareUnwritable(ctx, group)
}

// CommitsSeen implements reset.CommitHistory: a plan names a committer outside the group.
func (p planReader) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	return p.client.CommitsSeen(ctx, group, typ, since)
}

// servedCluster is one cluster of `offsettui serve` as its /mcp reads it: describe and
// check from its last snapshot (the API's), plans from its connection, read only.
type servedCluster struct {
	ex      *serve.Exporter
	label   string
	c       common
	access  writeAccess // the cluster's connection's
	planner planReader
	tool    func() plan.ToolConnection // as directCluster's
}

// Describe implements mcpserver.Cluster from the last snapshot.
func (s *servedCluster) Describe(_ context.Context, groups, topics []string) (model.Snapshot, error) {
	r, err := s.ex.Read(s.label)
	if err != nil {
		return model.Snapshot{}, err
	}
	if r.Snapshot == nil {
		return model.Snapshot{}, fmt.Errorf("cluster %s cannot be read: %s", r.Cluster, r.Failure)
	}
	return assemble.Narrow(r.Snapshot, assemble.NarrowOptions{Groups: groups, Topics: topics, ByName: len(groups) == 1, RiskWindow: r.RiskWindow}), nil
}

// Check implements mcpserver.Cluster as /api/v1/check judges.
func (s *servedCluster) Check(_ context.Context, group string, opts check.Options) (check.Result, error) {
	r, err := s.ex.Read(s.label)
	if err != nil {
		return check.Result{}, err
	}
	return r.Check(group, serve.CheckQuery{Options: opts}), nil
}

// Plan implements mcpserver.Cluster on the cluster's connection.
func (s *servedCluster) Plan(ctx context.Context, r mcpserver.PlanRequest) (plan.Plan, error) {
	return planOnly(ctx, s.planner, s.c, s.access, s.tool, r)
}

// lazyPlanSource is a serve cluster's connection, made on first use, as a planSource.
type lazyPlanSource struct{ lc *lazyClient }

func (l lazyPlanSource) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	return l.lc.ReadPlanInput(ctx, group, topics, at)
}

func (l lazyPlanSource) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	return l.lc.TargetTimestamps(ctx, want, budget)
}

func (l lazyPlanSource) ShareUnwritable(ctx context.Context, group string) string {
	return l.lc.ShareUnwritable(ctx, group)
}

func (l lazyPlanSource) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	cl, err := l.lc.client(ctx)
	if err != nil {
		return nil // the other ways of the guard still watch when a person executes
	}
	return cl.CommitsSeen(ctx, group, typ, since)
}
