//go:build propstub

package kafka

import (
	"io"

	"github.com/IBM/sarama"
)

func ApplyProperties(*sarama.Config, map[string]string) ([]string, error) { return nil, nil }
func ParseProperties(io.Reader, string) (map[string]string, error)        { return nil, nil }
