package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// planOnlyCluster plans one fixed plan and counts the plans asked for.
type planOnlyCluster struct {
	p     plan.Plan
	plans int
}

func (c *planOnlyCluster) Describe(context.Context, []string, []string) (model.Snapshot, error) {
	return model.Snapshot{}, errors.New("not in this test")
}
func (c *planOnlyCluster) Check(context.Context, string, check.Options) (check.Result, error) {
	return check.Result{}, errors.New("not in this test")
}
func (c *planOnlyCluster) Plan(context.Context, PlanRequest) (plan.Plan, error) {
	c.plans++
	return c.p, nil
}

// callTool serves o over in-memory transports and makes one call.
func callTool(t *testing.T, o Options, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return strings.Join(out, "\n")
}

// TestPlanOut: over stdio (a WritePlan given) a plan tool with plan-out writes the plan it
// answers to the path asked and names the file; a plan that could not be written (a blocked
// one) is a tool error that still carries the plan; where plans are only returned (serve's
// /mcp: no WritePlan) plan-out is refused before anything is planned.
func TestPlanOut(t *testing.T) {
	p := plan.Plan{Group: "g", Strategy: plan.Strategy{Kind: plan.ToEarliest}, Rows: []plan.Row{{Topic: "t"}}}
	cl := &planOnlyCluster{p: p}
	var wrote []string
	o := Options{Cluster: func(string) (Cluster, error) { return cl, nil },
		WritePlan: func(q plan.Plan, path string) (plan.Plan, error) {
			if q.Group != "g" {
				t.Errorf("WritePlan got plan of %q", q.Group)
			}
			wrote = append(wrote, path)
			q.Reviewed = &plan.Reviewed{File: "/abs/" + path, SHA256: "abc123"}
			return q, nil
		}}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"plan_reset", map[string]any{"group": "g", "all-topics": true, "to-earliest": true, "plan-out": "p1.json"}},
		{"plan_delete_offsets", map[string]any{"group": "g", "topic": []any{"t"}, "plan-out": "p2.json"}},
		{"plan_delete_group", map[string]any{"group": "g", "plan-out": "p3.json"}},
		{"plan_copy", map[string]any{"group": "g", "from-group": "s", "plan-out": "p4.json"}},
	} {
		res := callTool(t, o, tc.tool, tc.args)
		if res.IsError || !strings.Contains(textOf(res), "Plan file written: /abs/"+tc.args["plan-out"].(string)+" (sha256 abc123)") {
			t.Errorf("%s: error %v, text %q", tc.tool, res.IsError, textOf(res))
		}
	}
	if strings.Join(wrote, ",") != "p1.json,p2.json,p3.json,p4.json" {
		t.Errorf("plan files written %v", wrote)
	}

	o.WritePlan = func(plan.Plan, string) (plan.Plan, error) { return plan.Plan{}, errors.New("the plan is blocked") }
	res := callTool(t, o, "plan_reset", map[string]any{"group": "g", "all-topics": true, "to-earliest": true, "plan-out": "p.json"})
	var doc struct {
		Group string `json:"group"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !res.IsError || !strings.Contains(textOf(res), "NO PLAN FILE WRITTEN: the plan is blocked") || json.Unmarshal(b, &doc) != nil || doc.Group != "g" {
		t.Errorf("not written: error %v, text %q, structured %s", res.IsError, textOf(res), b)
	}

	o.WritePlan = nil
	before := cl.plans
	res = callTool(t, o, "plan_reset", map[string]any{"group": "g", "all-topics": true, "to-earliest": true, "plan-out": "p.json"})
	if !res.IsError || !strings.Contains(textOf(res), "plan-out: this server returns plans and never writes a file") || cl.plans != before {
		t.Errorf("over /mcp: error %v, text %q, %d plans made", res.IsError, textOf(res), cl.plans-before)
	}
	if res := callTool(t, o, "plan_delete_group", map[string]any{"group": "g"}); res.IsError || !strings.Contains(textOf(res), "plan-out writes it to a plan file") {
		t.Errorf("without plan-out: error %v, text %q", res.IsError, textOf(res))
	}
}
