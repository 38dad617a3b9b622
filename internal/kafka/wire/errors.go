package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
)

// CodeName is Kafka's name of a protocol error code (the `code` field of offsettui's JSON
// errors), from franz-go's table of Kafka's errors; ERROR_CODE_<n> for a code it lacks.
func CodeName(code int16) string {
	if code == kerr.NotLeaderForPartition.Code {
		return "NOT_LEADER_OR_FOLLOWER" // Kafka's name since 2.7; kerr keeps the one before
	}
	if e, ok := kerr.ErrorForCode(code).(*kerr.Error); ok && e.Code == code {
		return e.Message
	}
	return fmt.Sprintf("ERROR_CODE_%d", code)
}

// CodeText is Kafka's description of a protocol error code, from franz-go's table.
func CodeText(code int16) string {
	if e, ok := kerr.ErrorForCode(code).(*kerr.Error); ok && e.Code == code {
		return strings.TrimSuffix(e.Description, ".")
	}
	return "unknown error code " + strconv.Itoa(int(code))
}

// codeErr is the Go error of a protocol error code.
func codeErr(code int16) error {
	if e, ok := kerr.ErrorForCode(code).(*kerr.Error); ok && e.Code == code {
		return e
	}
	return fmt.Errorf("error code %d", code)
}

// kindOf classifies a protocol error code.
func kindOf(code int16) model.ErrorKind {
	switch code {
	case kerr.TopicAuthorizationFailed.Code, kerr.GroupAuthorizationFailed.Code, kerr.ClusterAuthorizationFailed.Code,
		kerr.SaslAuthenticationFailed.Code, kerr.TransactionalIDAuthorizationFailed.Code:
		return model.KindDenied
	case kerr.RequestTimedOut.Code:
		return model.KindTimeout
	case kerr.LeaderNotAvailable.Code, kerr.NotLeaderForPartition.Code, kerr.BrokerNotAvailable.Code,
		kerr.ReplicaNotAvailable.Code, kerr.NetworkException.Code, kerr.CoordinatorNotAvailable.Code,
		kerr.NotCoordinator.Code, kerr.CoordinatorLoadInProgress.Code:
		return model.KindUnreachable
	case kerr.UnknownTopicOrPartition.Code, kerr.GroupIDNotFound.Code:
		return model.KindNotFound
	case kerr.UnsupportedVersion.Code:
		return model.KindUnsupported
	}
	return model.KindBroker
}

// CodeError turns a protocol error code into a model.Error; msg "" is Kafka's description.
func CodeError(code int16, msg string) model.Error {
	name := CodeName(code)
	if msg == "" {
		msg = CodeText(code)
	}
	return model.Error{Kind: kindOf(code), Code: &name, Message: strings.TrimPrefix(msg, "kafka server: ")}
}

// KerrError turns a protocol error sarama returned into a model.Error; msg "" is Kafka's
// description.
func KerrError(k sarama.KError, msg string) model.Error { return CodeError(int16(k), msg) }

// KerrAt is a protocol error sarama returned while doing what ("metadata"), in Kafka's words
// ("metadata: Request was for a topic or partition that does not exist on this broker"),
// never sarama's ("kafka server: …"); its code is the error's Code.
func KerrAt(k sarama.KError, what string) model.Error { return KerrError(k, what+": "+KerrText(k)) }

// KerrText is Kafka's description of a protocol error sarama returned.
func KerrText(k sarama.KError) string { return CodeText(int16(k)) }

// ToError turns any error from a request into a model.Error.
func ToError(err error) model.Error {
	var k sarama.KError
	if errors.As(err, &k) {
		return KerrError(k, "")
	}
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return CodeError(ke.Code, "")
	}
	e := model.Error{Kind: model.KindBroker, Message: describeConnErr(err).Error()}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, ErrRequestTimeout),
		errors.As(err, &ne) && ne.Timeout():
		e.Kind = model.KindTimeout
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, sarama.ErrOutOfBrokers),
		errors.Is(err, sarama.ErrNotConnected), errors.Is(err, sarama.ErrClosedClient),
		errors.Is(err, sarama.ErrBrokerNotFound), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, net.ErrClosed), errors.As(err, new(*net.OpError)),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF): // the broker closed the connection
		e.Kind = model.KindUnreachable
	case errors.Is(err, sarama.ErrUnsupportedVersion), errors.Is(err, ErrUnsupported):
		e.Kind = model.KindUnsupported
	}
	return e
}

// BrokerErr is err from asking broker id for what ("list offsets"), with the broker
// named on it.
func BrokerErr(err error, id int32, what string) model.Error {
	e := ToError(err)
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

// OrText is s, or fallback when s is empty: a broker's message, or the code's own text.
func OrText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
