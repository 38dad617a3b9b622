// Package mcpserver is `offsettui mcp`: a Model Context Protocol server whose tools answer
// what describe, check and the dry runs of reset, delete-offsets and delete-group answer,
// as the same JSON documents (docs/api.md). It reaches a cluster only through Cluster,
// whose methods read, judge and plan: no tool can write to Kafka, whatever its arguments.
package mcpserver

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Cluster is all a tool can do with a cluster. Nothing in it writes: plans are made as
// the dry run of reset makes them, and only returned.
type Cluster interface {
	// Describe reads the groups named (every group when none), with only their
	// partitions on topics (all when none), as describe --group and --topic do.
	Describe(ctx context.Context, groups, topics []string) (model.Snapshot, error)
	// Check proves that group can start without losing records, as check does.
	Check(ctx context.Context, group string, opts check.Options) (check.Result, error)
	// Plan makes the plan of reset (delete-offsets, delete-group) without --execute.
	Plan(ctx context.Context, req PlanRequest) (plan.Plan, error)
}

// PlanRequest is one plan's flags.
type PlanRequest struct {
	Group    string
	Scope    plan.Scope
	Strategy plan.Strategy
	// AssumeReset is the consumers' auto.offset.reset (--assume-reset).
	AssumeReset string
	// AllowNewGroup plans for a group no broker lists (--allow-new-group).
	AllowNewGroup bool
}

// Options configure New.
type Options struct {
	// Cluster returns the cluster a call names with its "context" argument ("" when it
	// names none), or an error saying which it may name.
	Cluster func(context string) (Cluster, error)
	// RiskWindow is how far ahead at-risk looks (--risk-window).
	RiskWindow time.Duration
	// Version is offsettui's, as the server names itself.
	Version string
	// Now is the clock by-duration and to-datetime count from (time.Now when nil).
	Now func() time.Time
}

// New makes the server with its eight tools.
func New(o Options) *mcp.Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RiskWindow <= 0 {
		o.RiskWindow = model.DefaultRiskWindow
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "offsettui", Title: "offsettui: Kafka consumer offsets", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	t := tools{o: o}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	add := func(name, title, desc string) *mcp.Tool {
		return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: readOnly}
	}
	mcp.AddTool(s, add("list_groups", "List groups, most urgent first",
		"Every consumer group of the cluster (or those named), most urgent first (losing data, at risk, lost, behind, other problems, the rest), each with a one-line story. Answers the groups' names, types, states, worst status, total lag and story."), t.listGroups)
	mcp.AddTool(s, add("describe_group", "Describe a group",
		"One group as `offsettui describe --group G -o json` writes it: every partition's low, high and committed offsets, lag, time lag, status, retention, members, and the time axis where known."), t.describeGroup)
	mcp.AddTool(s, add("check_group", "Check a group can start without loss",
		"The fail-closed proof of `offsettui check --group G -o json`: pass (exit 0), fail (1: it would lose records) or incomplete (2: it could not be proven), with each partition's reasons. Pass topic for a first start."), t.checkGroup)
	mcp.AddTool(s, add("explain_status", "Explain a status",
		"What a status means (ok, at-risk, missing, ahead, expired, unknown), or, with group, topic and partition, what that partition's status means with its numbers."), t.explainStatus)
	mcp.AddTool(s, add("plan_reset", "Plan an offset reset (never executed)",
		"The plan of `offsettui reset ... -o json` without --execute: each partition's target, what is re-delivered or skipped, blockers, notes and the Kafka command. Exactly one strategy: to-earliest, to-latest, to-current (true), to-offset or shift-by (N), to-datetime (a time), by-duration (PT1H, 1h), from-group (a group). Nothing is written: a person applies it with the CLI."), t.planReset)
	mcp.AddTool(s, add("plan_delete_offsets", "Plan deleting a group's commits (never executed)",
		"The plan of `offsettui delete-offsets ... -o json` without --execute. Nothing is written."), t.planDeleteOffsets)
	mcp.AddTool(s, add("plan_delete_group", "Plan deleting a group (never executed)",
		"The plan of `offsettui delete-group --group G -o json` without --execute. Nothing is written."), t.planDeleteGroup)
	mcp.AddTool(s, add("plan_copy", "Plan copying another group's offsets (never executed)",
		"The plan of `offsettui reset --group G --from-group S -o json` without --execute: group G takes the committed offsets of group S. Nothing is written."), t.planCopy)
	return s
}

const instructions = "offsettui reads Kafka consumer groups: where each really stands (low, high and committed offsets, lag, time lag, retention, status) and what a reset would do. " +
	"Start with list_groups (most urgent first), then describe_group and check_group; explain_status says what a status means. " +
	"The plan_ tools only plan: nothing is ever written to Kafka through this server. A person applies a plan with the offsettui CLI (reset --execute)."

// RunStdio serves s over in and out, newline-delimited JSON-RPC as MCP's stdio transport
// is (offsettui mcp gives it stdin and stdout), until the client closes in or ctx ends.
func RunStdio(ctx context.Context, s *mcp.Server, in io.Reader, out io.Writer) error {
	return s.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// HTTPHandler serves s as MCP's streamable HTTP transport (serve's /mcp): each request
// stands alone, and answers are JSON.
func HTTPHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
