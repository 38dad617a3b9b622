package wire

// The brokers' request versions, asked once per snapshot: what the cluster cannot be asked
// follows from them (model.ClusterCapabilities, docs/kafka.md "Kafka versions"). sarama
// lowers each request to what its broker supports by itself; these versions are for saying so.

import (
	"context"
	"fmt"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// ClusterVersions asks every broker for its ApiVersions, concurrently, on the connections the
// snapshot uses, and returns the cluster's: per request the lowest of the brokers' maxima, a
// request one broker lacks left out. Brokers that do not answer are left out (their other
// requests fail in the same snapshot and say so); nil when none answered.
func (c *Conn) ClusterVersions(ctx context.Context, brokers []*sarama.Broker) model.APIVersions {
	var (
		mu   sync.Mutex
		each []map[int16]int16
	)
	Run(c, brokers, func(b *sarama.Broker) {
		resp, err := Call(ctx, c, b, func() (*sarama.ApiVersionsResponse, error) {
			return b.ApiVersions(&sarama.ApiVersionsRequest{Version: 3, ClientSoftwareName: softwareName, ClientSoftwareVersion: softwareVersion})
		})
		if err == nil && resp.ErrorCode != 0 {
			err = fmt.Errorf("ApiVersions: %w", sarama.KError(resp.ErrorCode))
		}
		if err != nil {
			c.logf("broker %d (%s): %v: its versions are left out of the cluster's", b.ID(), b.Addr(), err)
			return
		}
		m := make(map[int16]int16, len(resp.ApiKeys))
		for _, k := range resp.ApiKeys {
			m[k.ApiKey] = k.MaxVersion
		}
		mu.Lock()
		each = append(each, m)
		mu.Unlock()
	})
	return lowestVersions(each)
}

// lowestVersions is the versions every broker supports: per request the lowest maximum, a
// request one of them lacks left out; nil for no broker.
func lowestVersions(each []map[int16]int16) model.APIVersions {
	if len(each) == 0 {
		return nil
	}
	out := model.APIVersions{}
	for key, v := range each[0] {
		lowest, everywhere := v, true
		for _, m := range each[1:] {
			w, ok := m[key]
			if !ok {
				everywhere = false
				break
			}
			lowest = min(lowest, w)
		}
		if everywhere {
			out[key] = lowest
		}
	}
	return out
}
