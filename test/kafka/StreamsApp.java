// A tiny Kafka Streams application for offsettui's real-broker tests: it joins a streams group
// (KIP-1071, group.protocol=streams) and copies every record of the input topic to the output
// topic, committing every 100 ms. Run it as a single source file on the broker's jars (the
// kafka-streams jar of test/kafka/pom.xml, the broker's version):
//
//   java -cp "$OFFSETTUI_KAFKA_LIB/*" test/kafka/StreamsApp.java BOOTSTRAP APP_ID IN OUT STATE_DIR [STORE PAUSE_MS]
//
// With STORE it counts the input's records per key in a state store of that name instead
// (changelog topic APP_ID-STORE-changelog) and writes the counts to the output topic; a
// restore of the store from its changelog reads at most 100 records a poll and pauses
// PAUSE_MS after each batch, so that a large changelog takes a while to restore. It prints
// "restore-start TOPIC PARTITION START END", "restored TOPIC PARTITION BATCH_END COUNT" per
// batch and "restore-end TOPIC PARTITION TOTAL".
//
// SIGTERM closes it cleanly, so the member leaves the group and it becomes Empty.
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateRestoreListener;

public class StreamsApp {
    public static void main(String[] args) throws Exception {
        if (args.length != 5 && args.length != 7) {
            System.err.println("usage: StreamsApp BOOTSTRAP APP_ID IN_TOPIC OUT_TOPIC STATE_DIR [STORE PAUSE_MS]");
            System.exit(2);
        }
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArray().getClass());
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArray().getClass());

        StreamsBuilder b = new StreamsBuilder();
        if (args.length == 5) {
            b.stream(args[2]).to(args[3]);
        } else {
            p.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 100);
            b.stream(args[2]).groupByKey().count(Materialized.as(args[5])).toStream()
                .to(args[3], Produced.valueSerde(Serdes.Long()));
        }
        KafkaStreams streams = new KafkaStreams(b.build(), p);
        if (args.length == 7) {
            streams.setGlobalStateRestoreListener(new SlowRestore(Long.parseLong(args[6])));
        }
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(10));
            done.countDown();
        }));
        streams.setStateListener((now, before) -> System.out.println("state " + before + " -> " + now));
        streams.start();
        done.await();
    }

    // SlowRestore pauses after each restored batch and says how far the restore is.
    static final class SlowRestore implements StateRestoreListener {
        private final long pauseMs;

        SlowRestore(long pauseMs) {
            this.pauseMs = pauseMs;
        }

        @Override
        public void onRestoreStart(TopicPartition tp, String store, long start, long end) {
            System.out.println("restore-start " + tp.topic() + " " + tp.partition() + " " + start + " " + end);
        }

        @Override
        public void onBatchRestored(TopicPartition tp, String store, long batchEnd, long n) {
            System.out.println("restored " + tp.topic() + " " + tp.partition() + " " + batchEnd + " " + n);
            try {
                Thread.sleep(pauseMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void onRestoreEnd(TopicPartition tp, String store, long total) {
            System.out.println("restore-end " + tp.topic() + " " + tp.partition() + " " + total);
        }
    }
}
