package views

import (
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The planner's operations besides a reset to a target: copying another group's
// positions (--from-group), deleting commits (delete-offsets) and deleting the group
// (delete-group). The Resetter plans and executes each exactly as the CLI's commands do
// (internal/reset over internal/model/plan), under the same guards; here is only what
// the form offers for each: its scopes, the one it starts with, and its words.

// deleteGroupScope is the only scope of delete-group: every commit of the group.
var deleteGroupScope = scopeChoice{id: "group", label: "the whole group: every commit it has", scope: plan.DeleteGroupScope}

// kindNow is the strategy (or operation) the form shows.
func (s *plannerScreen) kindNow() plan.StrategyKind { return plannerKinds[s.kind] }

// scopeList is the scopes the current kind offers, in the order ←/→ walks them.
func (s *plannerScreen) scopeList() []scopeChoice {
	switch k := s.kindNow(); {
	case k == plan.DeleteGroup:
		return []scopeChoice{deleteGroupScope}
	case k.FromFileKind():
		return []scopeChoice{fileScope}
	case k == plan.FromGroup:
		return fromGroupScopes(s.scopes, s.group, s.values[plan.FromGroup])
	case k == plan.DeleteOffsets:
		// A delete removes commits only: a topic's partitions with a commit are the topic.
		return slices.DeleteFunc(slices.Clone(s.scopes), func(c scopeChoice) bool { return strings.HasPrefix(c.id, "committed:") })
	}
	return s.scopes
}

// fromGroupScopes are a copy's scopes, as reset --from-group's: first every partition the
// source has a commit on (no --topic, the command's default), then the selection's, and
// --all-topics, which is the group's commits and the source's.
func fromGroupScopes(scopes []scopeChoice, group, source string) []scopeChoice {
	if source == "" {
		source = "the source"
	}
	out := []scopeChoice{{id: "source", label: "every partition " + source + " has a commit on", scope: plan.Scope{}}}
	for _, c := range scopes {
		if c.id == "all" {
			c.label = "every partition " + group + " or " + source + " has a commit on"
		}
		out = append(out, c)
	}
	return out
}

// currentScope is the scope the form says: the one chosen when the current kind offers
// it, else the kind's own first choice.
func (s *plannerScreen) currentScope() scopeChoice {
	list := s.scopeList()
	for _, id := range []string{s.scopeID, s.defaultScopeID()} {
		if i := slices.IndexFunc(list, func(c scopeChoice) bool { return c.id == id }); i >= 0 {
			return list[i]
		}
	}
	return list[0]
}

// moveScope chooses the scope step away from the current one.
func (s *plannerScreen) moveScope(step int) {
	list := s.scopeList()
	i := max(0, slices.IndexFunc(list, func(c scopeChoice) bool { return c.id == s.currentScope().id }))
	s.scopeID, s.scopeChosen = list[(i+step+len(list))%len(list)].id, true
}

// kindChanged starts a newly chosen kind on its own first scope, unless the operator chose
// one, which stays wherever the kind offers it.
func (s *plannerScreen) kindChanged() {
	if !s.scopeChosen {
		s.scopeID = s.defaultScopeID()
	}
}

// defaultScopeID is the scope a kind starts with (docs/tui.md): the marked partitions when
// some are marked; else for a copy every partition the source has a commit on, for a
// delete of commits the selected row's topic, and for a reset what defaultScope says.
func (s *plannerScreen) defaultScopeID() string {
	switch k := s.kindNow(); {
	case k == plan.DeleteGroup:
		return deleteGroupScope.id
	case k.FromFileKind():
		return fileScope.id
	case len(s.marked) > 0:
		return "marked"
	case k == plan.FromGroup:
		return "source"
	case k == plan.DeleteOffsets && s.selTopic != "":
		return "topic:" + s.selTopic
	case k == plan.DeleteOffsets:
		return "all"
	}
	return s.scopes[defaultScope(s.scopes, s.g, s.topics, s.selTopic, s.selUncommitted)].id
}

// resultTitle heads an executed plan: "Reset of G · --to-offset 1", "Restore of G · --restore
// FILE", "Delete-group of G".
func resultTitle(p plan.Plan) string {
	if k := p.Strategy.Kind; k == plan.DeleteOffsets || k == plan.DeleteGroup {
		return display.OperationTitle(k) + " of " + p.Group
	}
	return display.OperationTitle(p.Strategy.Kind) + " of " + p.Group + " · " + resolvedText(p.Strategy)
}
