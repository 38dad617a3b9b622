package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealDescribeUnknownTopic: on a real broker (auto.create.topics.enable is on by
// default), `describe --topic` naming a topic that does not exist says so on stderr, exit 0,
// describes the groups of the topic that does exist, and creates no topic by asking.
func TestRealDescribeUnknownTopic(t *testing.T) {
	b := realkafka.Main(t)
	seed := b.Seed(t)
	topic, nosuch, group := realkafka.Name("dt-t"), realkafka.Name("dt-nosuch"), realkafka.Name("dt-g")
	seed.CreateTopic(topic, 1, nil)
	seed.Commit(group, map[model.TP]int64{{Topic: topic, Partition: 0}: 0})
	var out, errb bytes.Buffer
	code := describeMain([]string{"--bootstrap-server", b.Addr, "--topic", topic, "--topic", nosuch}, &out, &errb)
	want := "offsettui describe: topic " + nosuch + " (--topic) does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n"
	if code != exitOK || errb.String() != want || !strings.Contains(out.String(), "Consumer group '"+group+"'") {
		t.Errorf("exit %d, stderr %q; want 0 and %q, and the group %s described:\n%s", code, errb.String(), want, group, out.String())
	}
	topics, err := seed.Adm.ListTopics(realkafka.Ctx(t, 30*time.Second), nosuch)
	if err != nil {
		t.Fatal(err)
	}
	if topics.Has(nosuch) {
		t.Errorf("asking whether %s exists created it", nosuch)
	}
}
