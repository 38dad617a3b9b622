package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
)

// tools holds the handlers. Each answers a JSON document as structured content and a short
// summary as text; an argument the CLI would refuse is a tool error naming it.
type tools struct{ o Options }

// answer is a tool's result: the summary as text, doc as the structured content.
func answer(summary string, doc any) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: summary}}}, doc, nil
}

func (t tools) cluster(name string) (Cluster, error) {
	return t.o.Cluster(name)
}

// describeDoc is describe -o json's document, written by the same writer.
func describeDoc(s model.Snapshot) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := report.DescribeJSON(&b, s); err != nil {
		return nil, err
	}
	return json.RawMessage(b.Bytes()), nil
}

// listed is one group of list_groups.
type listed struct {
	Group       string       `json:"group"`
	Type        string       `json:"type"`
	State       string       `json:"state"`
	Members     *int         `json:"members"`
	WorstStatus model.Status `json:"worstStatus"`
	TotalLag    *int64       `json:"totalLag"`
	Story       string       `json:"story"`
}

func (t tools) listGroups(ctx context.Context, _ *mcp.CallToolRequest, a listArgs) (*mcp.CallToolResult, any, error) {
	c, err := t.cluster(a.Context)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.Describe(ctx, a.Group, a.Topic)
	if err != nil {
		return nil, nil, err
	}
	out := struct {
		Cluster model.Cluster `json:"cluster"`
		Groups  []listed      `json:"groups"`
		Errors  []model.Error `json:"errors"`
	}{Cluster: s.Cluster, Groups: make([]listed, 0, len(s.Groups)), Errors: s.Errors}
	lines := []string{fmt.Sprintf("%d groups, most urgent first:", len(s.Groups))}
	for i := range s.Groups { // Describe's order: the urgency order
		g := &s.Groups[i]
		l := listed{Group: g.Group, Type: g.Type, State: g.State, WorstStatus: g.WorstStatus, TotalLag: g.TotalLag, Story: Story(g, s.Cluster.TakenAt.Time)}
		if g.Members != nil {
			l.Members = model.Ptr(len(g.Members))
		}
		out.Groups = append(out.Groups, l)
		if i < 20 {
			lines = append(lines, "- "+g.Group+": "+l.Story)
		}
	}
	if n := len(s.Groups) - 20; n > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more (see the structured content)", n))
	}
	return answer(strings.Join(lines, "\n"), out)
}

func (t tools) describeGroup(ctx context.Context, _ *mcp.CallToolRequest, a describeArgs) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(a.Group) == "" {
		return nil, nil, errors.New("group is required")
	}
	c, err := t.cluster(a.Context)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.Describe(ctx, []string{a.Group}, a.Topic)
	if err != nil {
		return nil, nil, err
	}
	doc, err := describeDoc(s)
	if err != nil {
		return nil, nil, err
	}
	i := slices.IndexFunc(s.Groups, func(g model.Group) bool { return g.Group == a.Group })
	switch {
	case i < 0:
		return answer("group "+a.Group+" has no partitions on "+strings.Join(a.Topic, ", "), doc)
	case s.Groups[i].Error.IsGroupNotFound():
		return answer("group "+a.Group+" does not exist: "+s.Groups[i].Error.Error(), doc)
	}
	return answer(a.Group+": "+Story(&s.Groups[i], s.Cluster.TakenAt.Time), doc)
}

func (t tools) checkGroup(ctx context.Context, _ *mcp.CallToolRequest, a checkArgs) (*mcp.CallToolResult, any, error) {
	opts, err := a.options(t.o.RiskWindow)
	if err != nil {
		return nil, nil, err
	}
	c, err := t.cluster(a.Context)
	if err != nil {
		return nil, nil, err
	}
	r, err := c.Check(ctx, a.Group, opts)
	if err != nil {
		return nil, nil, err
	}
	r.ExitCode = r.Verdict.ExitCode()
	return answer(fmt.Sprintf("%s (exit code %d)", r.Summary, r.ExitCode), r)
}

// explained is explain_status's answer.
type explained struct {
	Status      model.Status          `json:"status"`
	Meaning     string                `json:"meaning"`
	Explanation *string               `json:"explanation"`
	Group       *string               `json:"group"`
	Partition   *model.GroupPartition `json:"partition"`
}

func (t tools) explainStatus(ctx context.Context, _ *mcp.CallToolRequest, a explainArgs) (*mcp.CallToolResult, any, error) {
	if a.Group == "" {
		if a.Topic != "" || a.Partition != nil {
			return nil, nil, errors.New("topic and partition name a partition of a group: pass group too")
		}
		var st model.Status
		if err := json.Unmarshal([]byte(`"`+a.Status+`"`), &st); err != nil || a.Status == "" {
			return nil, nil, fmt.Errorf("status: want one of ok, at-risk, missing, ahead, expired, unknown (or group, topic and partition), got %q", a.Status)
		}
		m := display.StatusMeaning(st)
		return answer(st.Badge()+": "+m, explained{Status: st, Meaning: m})
	}
	if a.Topic == "" || a.Partition == nil {
		return nil, nil, errors.New("group needs topic and partition: the partition whose status to explain")
	}
	c, err := t.cluster(a.Context)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.Describe(ctx, []string{a.Group}, []string{a.Topic})
	if err != nil {
		return nil, nil, err
	}
	tp := model.TP{Topic: a.Topic, Partition: *a.Partition}
	for _, g := range s.Groups {
		for i := range g.Partitions {
			p := &g.Partitions[i]
			if g.Group != a.Group || p.TP() != tp {
				continue
			}
			var topic *model.Topic
			if ti := slices.IndexFunc(s.Topics, func(x model.Topic) bool { return x.Topic == a.Topic }); ti >= 0 {
				topic = &s.Topics[ti]
			}
			e := display.ExplainFor(g.Type, g.Group, p, topic, t.o.RiskWindow)
			return answer(fmt.Sprintf("%s %s: %s", tp, p.Status.Badge(), e),
				explained{Status: p.Status, Meaning: display.StatusMeaning(p.Status), Explanation: &e, Group: &g.Group, Partition: p})
		}
	}
	return nil, nil, fmt.Errorf("group %s has no partition %s in the snapshot (no commit, no member on it, or the group does not exist)", a.Group, tp)
}

func (t tools) planReset(ctx context.Context, _ *mcp.CallToolRequest, a resetArgs) (*mcp.CallToolResult, any, error) {
	st, err := a.strategy(t.o.Now())
	if err != nil {
		return nil, nil, err
	}
	scope, err := a.scope(st.Kind)
	if err != nil {
		return nil, nil, err
	}
	req, err := a.request(scope, st)
	if err != nil {
		return nil, nil, err
	}
	req.AllowNewGroup = a.AllowNewGroup
	return t.plan(ctx, a.Context, req)
}

func (t tools) planDeleteOffsets(ctx context.Context, _ *mcp.CallToolRequest, a deleteOffsetsArgs) (*mcp.CallToolResult, any, error) {
	scope, err := a.scope(plan.DeleteOffsets)
	if err != nil {
		return nil, nil, err
	}
	req, err := a.request(scope, plan.DeleteOffsetsStrategy())
	if err != nil {
		return nil, nil, err
	}
	return t.plan(ctx, a.Context, req)
}

func (t tools) planDeleteGroup(ctx context.Context, _ *mcp.CallToolRequest, a deleteGroupArgs) (*mcp.CallToolResult, any, error) {
	req, err := a.request(plan.DeleteGroupScope, plan.DeleteGroupStrategy())
	if err != nil {
		return nil, nil, err
	}
	return t.plan(ctx, a.Context, req)
}

func (t tools) planCopy(ctx context.Context, _ *mcp.CallToolRequest, a copyArgs) (*mcp.CallToolResult, any, error) {
	return t.planReset(ctx, nil, resetArgs{planCommon: a.planCommon, scopeArgs: a.scopeArgs, FromGroup: &a.FromGroup})
}

// plan makes the plan and answers it as reset -o json writes it, with a summary that says
// nothing was written and how a person applies it.
func (t tools) plan(ctx context.Context, cluster string, req PlanRequest) (*mcp.CallToolResult, any, error) {
	c, err := t.cluster(cluster)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.Plan(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	lines := []string{fmt.Sprintf("%s of %s: %s.", display.OperationTitle(p.Strategy.Kind), p.Group, display.TotalsText(p.Totals))}
	for _, b := range p.Blockers {
		lines = append(lines, "BLOCKED ("+string(b.Kind)+"): "+b.Message)
	}
	lines = append(lines, "Nothing was written: this server never writes. A person applies the plan with the offsettui CLI and --execute, which checks it again first.")
	return answer(strings.Join(lines, "\n"), p)
}
