package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// kafkaErrorNames maps protocol error codes to Kafka's names (the `code` field of
// offsettui's JSON errors), for the codes an admin reader meets.
var kafkaErrorNames = map[sarama.KError]string{
	sarama.ErrUnknown:                            "UNKNOWN_SERVER_ERROR",
	sarama.ErrOffsetOutOfRange:                   "OFFSET_OUT_OF_RANGE",
	sarama.ErrUnknownTopicOrPartition:            "UNKNOWN_TOPIC_OR_PARTITION",
	sarama.ErrLeaderNotAvailable:                 "LEADER_NOT_AVAILABLE",
	sarama.ErrNotLeaderForPartition:              "NOT_LEADER_OR_FOLLOWER",
	sarama.ErrRequestTimedOut:                    "REQUEST_TIMED_OUT",
	sarama.ErrBrokerNotAvailable:                 "BROKER_NOT_AVAILABLE",
	sarama.ErrReplicaNotAvailable:                "REPLICA_NOT_AVAILABLE",
	sarama.ErrNetworkException:                   "NETWORK_EXCEPTION",
	sarama.ErrOffsetsLoadInProgress:              "COORDINATOR_LOAD_IN_PROGRESS",
	sarama.ErrConsumerCoordinatorNotAvailable:    "COORDINATOR_NOT_AVAILABLE",
	sarama.ErrNotCoordinatorForConsumer:          "NOT_COORDINATOR",
	sarama.ErrIllegalGeneration:                  "ILLEGAL_GENERATION",
	sarama.ErrUnknownMemberId:                    "UNKNOWN_MEMBER_ID",
	sarama.ErrRebalanceInProgress:                "REBALANCE_IN_PROGRESS",
	sarama.ErrInvalidCommitOffsetSize:            "INVALID_COMMIT_OFFSET_SIZE",
	sarama.ErrTopicAuthorizationFailed:           "TOPIC_AUTHORIZATION_FAILED",
	sarama.ErrGroupAuthorizationFailed:           "GROUP_AUTHORIZATION_FAILED",
	sarama.ErrClusterAuthorizationFailed:         "CLUSTER_AUTHORIZATION_FAILED",
	sarama.ErrUnsupportedVersion:                 "UNSUPPORTED_VERSION",
	sarama.ErrInvalidRequest:                     "INVALID_REQUEST",
	sarama.ErrUnsupportedForMessageFormat:        "UNSUPPORTED_FOR_MESSAGE_FORMAT",
	sarama.ErrPolicyViolation:                    "POLICY_VIOLATION",
	sarama.ErrSASLAuthenticationFailed:           "SASL_AUTHENTICATION_FAILED",
	sarama.ErrGroupIDNotFound:                    "GROUP_ID_NOT_FOUND",
	sarama.ErrNonEmptyGroup:                      "NON_EMPTY_GROUP",
	sarama.ErrGroupSubscribedToTopic:             "GROUP_SUBSCRIBED_TO_TOPIC",
	sarama.ErrFencedLeaderEpoch:                  "FENCED_LEADER_EPOCH",
	sarama.ErrUnknownLeaderEpoch:                 "UNKNOWN_LEADER_EPOCH",
	sarama.ErrOffsetNotAvailable:                 "OFFSET_NOT_AVAILABLE",
	sarama.ErrStaleBrokerEpoch:                   "STALE_BROKER_EPOCH",
	sarama.ErrUnstableOffsetCommit:               "UNSTABLE_OFFSET_COMMIT",
	sarama.ErrThrottlingQuotaExceeded:            "THROTTLING_QUOTA_EXCEEDED",
	sarama.ErrKafkaStorageError:                  "KAFKA_STORAGE_ERROR",
	sarama.ErrInvalidPartitions:                  "INVALID_PARTITIONS",
	sarama.ErrInvalidTopic:                       "INVALID_TOPIC_EXCEPTION",
	sarama.ErrGroupMaxSizeReached:                "GROUP_MAX_SIZE_REACHED",
	sarama.ErrMemberIdRequired:                   "MEMBER_ID_REQUIRED",
	sarama.ErrFencedInstancedId:                  "FENCED_INSTANCE_ID",
	sarama.ErrInvalidConfig:                      "INVALID_CONFIG",
	sarama.ErrNotController:                      "NOT_CONTROLLER",
	sarama.ErrTransactionalIDAuthorizationFailed: "TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
}

// kerrName returns Kafka's name for a protocol error code.
func kerrName(k sarama.KError) string {
	if n, ok := kafkaErrorNames[k]; ok {
		return n
	}
	return fmt.Sprintf("ERROR_CODE_%d", int16(k))
}

// kindOf classifies a protocol error code.
func kindOf(k sarama.KError) model.ErrorKind {
	switch k {
	case sarama.ErrTopicAuthorizationFailed, sarama.ErrGroupAuthorizationFailed,
		sarama.ErrClusterAuthorizationFailed, sarama.ErrSASLAuthenticationFailed,
		sarama.ErrTransactionalIDAuthorizationFailed:
		return model.KindDenied
	case sarama.ErrRequestTimedOut:
		return model.KindTimeout
	case sarama.ErrLeaderNotAvailable, sarama.ErrNotLeaderForPartition, sarama.ErrBrokerNotAvailable,
		sarama.ErrReplicaNotAvailable, sarama.ErrNetworkException, sarama.ErrConsumerCoordinatorNotAvailable,
		sarama.ErrNotCoordinatorForConsumer, sarama.ErrOffsetsLoadInProgress:
		return model.KindUnreachable
	case sarama.ErrUnknownTopicOrPartition, sarama.ErrGroupIDNotFound:
		return model.KindNotFound
	case sarama.ErrUnsupportedVersion:
		return model.KindUnsupported
	}
	return model.KindBroker
}

// kerrError turns a protocol error code into a model.Error.
func kerrError(k sarama.KError, msg string) model.Error {
	name := kerrName(k)
	text := k.Error()
	if msg != "" {
		text = msg
	}
	return model.Error{Kind: kindOf(k), Code: &name, Message: strings.TrimPrefix(text, "kafka server: ")}
}

// toError turns any error from a request into a model.Error.
func toError(err error) model.Error {
	var k sarama.KError
	if errors.As(err, &k) {
		return kerrError(k, "")
	}
	e := model.Error{Kind: model.KindBroker, Message: describeConnErr(err).Error()}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, errRequestTimeout),
		errors.As(err, &ne) && ne.Timeout():
		e.Kind = model.KindTimeout
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, sarama.ErrOutOfBrokers),
		errors.Is(err, sarama.ErrNotConnected), errors.Is(err, sarama.ErrClosedClient),
		errors.Is(err, sarama.ErrBrokerNotFound), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, net.ErrClosed), errors.As(err, new(*net.OpError)),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF): // the broker closed the connection
		e.Kind = model.KindUnreachable
	case errors.Is(err, sarama.ErrUnsupportedVersion):
		e.Kind = model.KindUnsupported
	}
	return e
}

// brokerErr is err from asking broker id for what ("list offsets"), with the broker
// named on it.
func brokerErr(err error, id int32, what string) model.Error {
	e := toError(err)
	e.Broker = &id
	e.Message = what + ": " + e.Message
	return e
}

// describeConnErr adds advice to the errors sarama returns when nothing answers.
func describeConnErr(err error) error {
	if errors.Is(err, sarama.ErrOutOfBrokers) {
		return fmt.Errorf("%w (is the address right and the broker up? for TLS or SASL pass --command-config)", err)
	}
	return err
}
