package demo

import (
	"errors"
	"fmt"

	"github.com/IBM/sarama"
)

// commitAll commits each group's offsets in the admin form (generation -1,
// no member id), which the coordinator accepts only while the group has no
// members; live members therefore join afterwards.
func (s *seeder) commitAll(groups []groupSpec) error {
	for _, g := range groups {
		if len(g.commits) == 0 {
			continue
		}
		if err := s.commit(g.name, g.commits); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) commit(group string, commits map[string]map[int32]int64) error {
	req := make(map[string]map[int32]sarama.OffsetAndMetadata, len(commits))
	for topic, parts := range commits {
		req[topic] = make(map[int32]sarama.OffsetAndMetadata, len(parts))
		for p, off := range parts {
			req[topic][p] = sarama.OffsetAndMetadata{Offset: off, LeaderEpoch: -1}
		}
	}
	resp, err := s.admin.AlterConsumerGroupOffsets(group, req, nil)
	if err != nil {
		return fmt.Errorf("commit offsets of group %s: %w", group, err)
	}
	// sarama reports per-partition failures only inside the response,
	// with err == nil, and a partition missing from it was not committed
	// either.
	var errs []error
	for topic, parts := range commits {
		for p := range parts {
			kerr, ok := resp.Errors[topic][p]
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("%s/%d: no answer from the coordinator", topic, p))
			case !errors.Is(kerr, sarama.ErrNoError):
				errs = append(errs, fmt.Errorf("%s/%d: %w", topic, p, kerr))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("commit offsets of group %s: %w", group, errors.Join(errs...))
	}
	return nil
}
