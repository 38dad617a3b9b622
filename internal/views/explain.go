package views

import (
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// explainFor is display.ExplainFor, and for a partition that cannot be told, what to try.
func explainFor(typ, group string, p *model.GroupPartition, t *model.Topic, window time.Duration) string {
	s := display.ExplainFor(typ, group, p, t, window)
	if p.Error != nil && strings.HasPrefix(s, "cannot tell: ") {
		s += "; " + TryNext(p.Error.Kind)
	}
	return s
}

// TryNext tells the operator what to try for an error kind.
func TryNext(k model.ErrorKind) string {
	switch k {
	case model.KindDenied:
		return "check the ACLs of this principal (Describe on the group and topic)"
	case model.KindTimeout:
		return "the broker is slow or overloaded; r retries"
	case model.KindUnreachable:
		return "a broker is down or unreachable; r retries"
	case model.KindNotFound:
		return "it no longer exists"
	case model.KindUnsupported:
		return "the broker is too old for this request"
	default:
		return "r retries"
	}
}

// TopicLine describes the retention of a partition's topic.
func TopicLine(name string, t *model.Topic) string {
	if t == nil {
		return "topic " + name + ": configs not read"
	}
	if t.Error != nil {
		return "topic " + name + ": configs could not be read: " + t.Error.Error()
	}
	parts := []string{"topic " + name, "cleanup.policy " + text.OrDash(t.CleanupPolicy)}
	if t.Deletes() {
		parts = append(parts, "retention.ms "+retentionMs(t.RetentionMs))
		if t.RetentionBytes != nil && *t.RetentionBytes >= 0 {
			parts = append(parts, "retention.bytes "+text.Thousands(*t.RetentionBytes)+" (deletion by size cannot be predicted)")
		} else {
			parts = append(parts, "retention.bytes unlimited")
		}
	} else {
		parts = append(parts, "never deleted by time")
	}
	if t.Compacts() {
		parts = append(parts, "delete.retention.ms "+retentionMs(t.DeleteRetentionMs)+" (how long tombstones are kept at least)")
	}
	if lr := display.LocalRetentionText(t); lr != "" {
		parts = append(parts, lr)
	}
	return strings.Join(parts, " · ")
}

func retentionMs(p *int64) string {
	switch {
	case p == nil:
		return "unknown"
	case *p < 0:
		return "unlimited"
	default:
		return text.HumanMs(p)
	}
}
