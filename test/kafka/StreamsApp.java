// A tiny Kafka Streams application for offsettui's real-broker tests: it joins a streams group
// (KIP-1071, group.protocol=streams) and copies every record of the input topic to the output
// topic, committing every 100 ms. Run it as a single source file on the broker's jars (the
// kafka-streams jar of test/kafka/pom.xml, the broker's version):
//
//   java -cp "$OFFSETTUI_KAFKA_LIB/*" test/kafka/StreamsApp.java BOOTSTRAP APP_ID IN OUT STATE_DIR
//
// SIGTERM closes it cleanly, so the member leaves the group and it becomes Empty.
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

public class StreamsApp {
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: StreamsApp BOOTSTRAP APP_ID IN_TOPIC OUT_TOPIC STATE_DIR");
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
        b.stream(args[2]).to(args[3]);
        KafkaStreams streams = new KafkaStreams(b.build(), p);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(10));
            done.countDown();
        }));
        streams.setStateListener((now, before) -> System.out.println("state " + before + " -> " + now));
        streams.start();
        done.await();
    }
}
