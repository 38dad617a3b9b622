package display

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// KafkaLineText names the cluster's Kafka version line and how many questions its brokers
// cannot be asked ("Kafka 2.8 · cannot ask 5"); "" when the brokers' versions are not known.
func KafkaLineText(c model.Cluster) string {
	if c.Capabilities == nil {
		return ""
	}
	line := "Kafka before 2.8"
	if c.KafkaVersion != nil {
		line = "Kafka " + *c.KafkaVersion
	}
	if n := len(c.Capabilities); n > 0 {
		line += fmt.Sprintf(" · cannot ask %d", n)
	}
	return line
}

// CapabilityLines are the questions the cluster's brokers cannot be asked, one line each:
// the request, the capability's id, and what follows.
func CapabilityLines(c model.Cluster) []string {
	out := make([]string, 0, len(c.Capabilities))
	for _, cp := range c.Capabilities {
		out = append(out, fmt.Sprintf("%s (%s): %s", cp.API, cp.Missing, cp.Consequence))
	}
	return out
}

// CapabilitiesHeading introduces CapabilityLines: the line, and that the versions come from
// the brokers' ApiVersions; "" when nothing is missing or the versions are not known.
func CapabilitiesHeading(c model.Cluster) string {
	if len(c.Capabilities) == 0 {
		return ""
	}
	line := "before 2.8"
	if c.KafkaVersion != nil {
		line = *c.KafkaVersion
	}
	return fmt.Sprintf("Kafka %s (by the brokers' ApiVersions): %s cannot be asked:", line,
		text.Plural(len(c.Capabilities), "question"))
}
