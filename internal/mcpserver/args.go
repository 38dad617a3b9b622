package mcpserver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The tools' arguments, named as the CLI's flags (docs/api.md), and their reading into the
// values the commands build from those flags, with the commands' own messages.

// contextArg names the cluster, as --context does.
type contextArg struct {
	Context string `json:"context,omitempty" jsonschema:"the cluster: a context of the config file, or the name serve gives it; needed only when the server has several"`
}

type listArgs struct {
	contextArg
	Group []string `json:"group,omitempty" jsonschema:"only these groups (default every group)"`
	Topic []string `json:"topic,omitempty" jsonschema:"only the partitions of these topics"`
}

type describeArgs struct {
	contextArg
	Group string   `json:"group" jsonschema:"the group"`
	Topic []string `json:"topic,omitempty" jsonschema:"only the partitions of these topics"`
}

type checkArgs struct {
	contextArg
	Group               string   `json:"group" jsonschema:"the group whose consumer is about to start"`
	Topic               []string `json:"topic,omitempty" jsonschema:"check every partition of these topics, with or without a commit (a first start)"`
	RecoveryWindow      string   `json:"recovery-window,omitempty" jsonschema:"how long the service may be down and still resume without loss (3d, P3D; default 0: none)"`
	AssumeReset         string   `json:"assume-reset,omitempty" jsonschema:"the consumer's auto.offset.reset: earliest, latest (default, the Kafka client's) or none"`
	IgnoreMissedDeletes bool     `json:"ignore-missed-deletes,omitempty" jsonschema:"the consumer keeps no state of compacted topics: missed deletes are notes"`
}

type explainArgs struct {
	contextArg
	Status    string `json:"status,omitempty" jsonschema:"a status to explain: ok, at-risk, missing, ahead, expired or unknown"`
	Group     string `json:"group,omitempty" jsonschema:"with topic and partition: explain that partition of this group"`
	Topic     string `json:"topic,omitempty"`
	Partition *int32 `json:"partition,omitempty"`
}

// scopeArgs is a plan's scope, as reset's --topic and --all-topics.
type scopeArgs struct {
	Topic     []string `json:"topic,omitempty" jsonschema:"T or T:0,2: every partition of topic T, or partitions 0 and 2 of it"`
	AllTopics bool     `json:"all-topics,omitempty" jsonschema:"every partition the group has a commit on"`
}

type planCommon struct {
	contextArg
	Group       string `json:"group" jsonschema:"the group to plan for"`
	AssumeReset string `json:"assume-reset,omitempty" jsonschema:"the consumers' auto.offset.reset, for partitions without a commit: earliest, latest (default) or none"`
}

type resetArgs struct {
	planCommon
	scopeArgs
	AllowNewGroup bool `json:"allow-new-group,omitempty" jsonschema:"plan for a group no broker lists"`
	// The strategies: exactly one.
	ToEarliest *bool   `json:"to-earliest,omitempty" jsonschema:"strategy: the low watermark"`
	ToLatest   *bool   `json:"to-latest,omitempty" jsonschema:"strategy: the high watermark (skips what is not read)"`
	ToCurrent  *bool   `json:"to-current,omitempty" jsonschema:"strategy: the committed offset"`
	ToOffset   *int64  `json:"to-offset,omitempty" jsonschema:"strategy: offset N on every partition in scope, clamped to low..high"`
	ShiftBy    *int64  `json:"shift-by,omitempty" jsonschema:"strategy: committed + N (negative rewinds), clamped"`
	ToDatetime *string `json:"to-datetime,omitempty" jsonschema:"strategy: the first record at or after a time (2026-11-29T08:00:00.000, UTC when no zone)"`
	ByDuration *string `json:"by-duration,omitempty" jsonschema:"strategy: the first record at or after now minus a duration (PT1H, 1h)"`
	FromGroup  *string `json:"from-group,omitempty" jsonschema:"strategy: the committed offsets of another group"`
}

type deleteOffsetsArgs struct {
	planCommon
	scopeArgs
}

type deleteGroupArgs struct {
	planCommon
}

type copyArgs struct {
	planCommon
	scopeArgs
	FromGroup string `json:"from-group" jsonschema:"the group whose committed offsets to copy"`
}

// strategy reads the one strategy of a plan_reset call, as reset reads its flags.
func (a resetArgs) strategy(now time.Time) (plan.Strategy, error) {
	type given struct {
		kind  plan.StrategyKind
		value string
		on    *bool
	}
	var set []given
	addBool := func(k plan.StrategyKind, v *bool) {
		if v != nil {
			set = append(set, given{kind: k, on: v})
		}
	}
	addValue := func(k plan.StrategyKind, v *string) {
		if v != nil {
			set = append(set, given{kind: k, value: *v})
		}
	}
	addBool(plan.ToEarliest, a.ToEarliest)
	addBool(plan.ToLatest, a.ToLatest)
	addBool(plan.ToCurrent, a.ToCurrent)
	if a.ToOffset != nil {
		set = append(set, given{kind: plan.ToOffset, value: strconv.FormatInt(*a.ToOffset, 10)})
	}
	if a.ShiftBy != nil {
		set = append(set, given{kind: plan.ShiftBy, value: strconv.FormatInt(*a.ShiftBy, 10)})
	}
	addValue(plan.ToDatetime, a.ToDatetime)
	addValue(plan.ByDuration, a.ByDuration)
	addValue(plan.FromGroup, a.FromGroup)
	if len(set) != 1 {
		return plan.Strategy{}, fmt.Errorf("exactly one strategy is needed, got %d; one of to-earliest, to-latest, to-current, to-offset, shift-by, to-datetime, by-duration, from-group (from-file and restore read files: run the CLI)", len(set))
	}
	g := set[0]
	if g.on != nil {
		if !*g.on {
			return plan.Strategy{}, fmt.Errorf("%s=false is not a strategy", g.kind)
		}
		return plan.ParseStrategy(g.kind, "", now)
	}
	st, err := plan.ParseStrategy(g.kind, g.value, now)
	if err != nil {
		return st, err
	}
	if g.kind == plan.FromGroup {
		return st, plan.SourceIsGroup(a.Group, st.Raw)
	}
	return st, nil
}

// scope reads --topic and --all-topics for a plan of kind k.
func (a scopeArgs) scope(k plan.StrategyKind) (plan.Scope, error) {
	return plan.NewScope(a.AllTopics, a.Topic, k)
}

// request is the plan request of the common arguments; the error names the argument.
func (a planCommon) request(scope plan.Scope, st plan.Strategy) (PlanRequest, error) {
	if strings.TrimSpace(a.Group) == "" {
		return PlanRequest{}, errors.New("group is required")
	}
	assume, err := model.ParseAssumeReset(a.AssumeReset)
	if err != nil {
		return PlanRequest{}, fmt.Errorf("assume-reset: %w", err)
	}
	return PlanRequest{Group: a.Group, Scope: scope, Strategy: st, AssumeReset: assume}, nil
}

// options reads check's flags, as check reads them.
func (a checkArgs) options(riskWindow time.Duration) (check.Options, error) {
	if strings.TrimSpace(a.Group) == "" {
		return check.Options{}, errors.New("group is required")
	}
	for _, t := range a.Topic {
		if strings.TrimSpace(t) == "" {
			return check.Options{}, errors.New("topic: empty topic name")
		}
	}
	o := check.Options{Topics: a.Topic, RiskWindow: riskWindow, IgnoreMissedDeletes: a.IgnoreMissedDeletes}
	var err error
	if a.RecoveryWindow != "" {
		if o.RecoveryWindow, err = parse.Duration(a.RecoveryWindow); err != nil {
			return o, fmt.Errorf("recovery-window: %w", err)
		}
		if o.RecoveryWindow < 0 {
			return o, fmt.Errorf("recovery-window: must not be negative, got %q", a.RecoveryWindow)
		}
	}
	if o.AssumeReset, err = model.ParseAssumeReset(a.AssumeReset); err != nil {
		return o, fmt.Errorf("assume-reset: %w", err)
	}
	return o, nil
}
