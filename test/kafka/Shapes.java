// Group and topic shapes for offsettui's real-broker tests, built with Kafka's own Java
// clients. scripts/kafka.sh compiles this file once per jar set (javac against the broker's
// jars) and exports the class directory; internal/testsupport/realkafka runs the sub-commands:
//
//   java -cp "$CLASSES:$LIB/*" Shapes SUBCOMMAND --bootstrap HOST:PORT [--name value ...]
//
// Every sub-command prints what it did as one JSON object a line on stdout ("event" names the
// kind; times are epoch milliseconds taken right after the broker answered), which is the truth
// the tests know by construction. Sub-commands that run until stopped close their clients
// cleanly on SIGTERM (a group member leaves its group) and print {"event":"closed"}; with
// --exit-on-stdin-eof they also stop so when their standard input ends.
//
//   produce       --topic T [--partition P] [--spec k=v,k2=v2,k3,...] [--count N --prefix P]
//                 [--batches B --pause-ms MS]   keys with no '=' are tombstones (null value);
//                 --count writes N records P0..P(N-1); --batches repeats the write B times,
//                 flushing and sleeping MS between (a segment.ms topic rolls a segment each)
//   transactions  --topic T --transactional-id ID --transactions N --records R [--abort-last]
//                 N transactions of R records to partition 0, each committed (the last aborted
//                 with --abort-last); "style" of each event says which
//   consume       --topic T[,T2] --group G [--protocol classic|consumer] [--isolation read_committed]
//                 [--max-records N] [--commit position|last-plus-one] [--stay-ms MS]
//                 [--stay-subscribed]
//                 subscribes, reads until N records (0: reads nothing and commits the first offset
//                 of each partition; default: until every position reached the end
//                 offsets of its assignment: the last stable offsets under read_committed),
//                 commits (position(): the next offset to fetch, which may be past records
//                 fetched but not returned; last-plus-one: the offset after the last record
//                 returned), stays in the group MS (or until stopped with --stay-subscribed)
//                 without committing again, and leaves
//   committer     --topic T --group G --interval-ms MS [--produce-per-sec N]
//                 assign() every partition, poll, commitSync(position) every MS; never joins
//                 the group (the Flink/Spark/Connect pattern); optionally also produces
//   stale         --group G --stale-topic S --stale-offset N --active-topic A [--commit-ms MS]
//                 a classic member that commits N on S, then subscribes to A only and stays
//                 (Stable), committing A's position every MS
//   admin-commit  --group G --offsets T:P=O[,T:P=O...]   Admin.alterConsumerGroupOffsets
//   tools         --file F   Kafka's CLI tools run one after another in this JVM (one JVM start
//                 for many commands): F holds commands separated by blank lines, each a main
//                 class and then one argument a line, as the tool's script passes them; each
//                 prints {"event":"tool","index":I,"exit":N,"stdout":…,"stderr":…} with what the
//                 tool wrote and the code it exited with (Exit.exit, or 1 when main threw)
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class Shapes {
    private final Map<String, String> opts = new HashMap<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Shapes SUBCOMMAND --bootstrap HOST:PORT [--name value ...] (see the file's header)");
            System.exit(2);
        }
        Shapes s = new Shapes();
        for (int i = 1; i < args.length; i++) {
            String k = args[i];
            if (!k.startsWith("--")) {
                die("unexpected argument " + k);
            }
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            s.opts.put(k.substring(2), flag ? "true" : args[++i]);
        }
        if (s.opts.containsKey("exit-on-stdin-eof")) {
            s.exitOnStdinEOF();
        }
        switch (args[0]) {
            case "produce" -> s.produce();
            case "transactions" -> s.transactions();
            case "consume" -> s.consume();
            case "committer" -> s.committer();
            case "stale" -> s.stale();
            case "admin-commit" -> s.adminCommit();
            case "tools" -> s.tools();
            default -> die("unknown sub-command " + args[0]);
        }
        System.out.flush();
    }

    // ---- options and output

    static void die(String msg) {
        System.err.println("Shapes: " + msg);
        System.exit(2);
    }

    String opt(String name) {
        String v = opts.get(name);
        if (v == null) {
            die("--" + name + " is required");
        }
        return v;
    }

    String opt(String name, String def) {
        return opts.getOrDefault(name, def);
    }

    long num(String name, long def) {
        return Long.parseLong(opt(name, Long.toString(def)));
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static String offsetsJSON(Map<TopicPartition, Long> offs) {
        StringBuilder b = new StringBuilder("{");
        Map<String, Long> sorted = new TreeMap<>();
        offs.forEach((tp, o) -> sorted.put(tp.topic() + "/" + tp.partition(), o));
        sorted.forEach((k, o) -> b.append(b.length() > 1 ? "," : "").append(q(k)).append(':').append(o));
        return b.append('}').toString();
    }

    // emit prints one event: fields are name/JSON-value pairs.
    static synchronized void emit(String event, Object... fields) {
        StringBuilder b = new StringBuilder("{\"event\":").append(q(event))
            .append(",\"atMs\":").append(System.currentTimeMillis());
        for (int i = 0; i + 1 < fields.length; i += 2) {
            Object v = fields[i + 1];
            String json = v instanceof String s ? q(s) : String.valueOf(v);
            if (v instanceof Raw r) {
                json = r.json;
            }
            b.append(',').append(q((String) fields[i])).append(':').append(json);
        }
        System.out.println(b.append('}'));
        System.out.flush();
    }

    record Raw(String json) {}

    Properties common() {
        Properties p = new Properties();
        p.put("bootstrap.servers", opt("bootstrap"));
        p.put("client.id", opt("client-id", "offsettui-shapes"));
        return p;
    }

    KafkaProducer<String, String> producer(Properties extra) {
        Properties p = common();
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("linger.ms", "0");
        p.putAll(extra);
        return new KafkaProducer<>(p);
    }

    KafkaConsumer<String, String> consumer(String group, Properties extra) {
        Properties p = common();
        p.put("group.id", group);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.putAll(extra);
        return new KafkaConsumer<>(p);
    }

    // exitOnStdinEOF exits (running the shutdown hook, so a member leaves its group) when
    // standard input ends: the test that started this JVM holds the other end of the pipe, so a
    // test process that dies without stopping it (a panic, a timeout, SIGKILL) takes it along.
    void exitOnStdinEOF() {
        Thread t = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // nothing is ever written
                }
            } catch (java.io.IOException ignored) {
                // the pipe is gone: the same as its end
            }
            System.exit(0);
        }, "stdin-eof");
        t.setDaemon(true);
        t.start();
    }

    // untilStopped registers the SIGTERM hook: it wakes the consumer up and waits (at most
    // 30 s) until the sub-command has closed its clients.
    void untilStopped(KafkaConsumer<?, ?> c) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            if (c != null) {
                c.wakeup();
            }
            try {
                closed.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    void finish() {
        emit("closed");
        closed.countDown();
    }

    // ---- sub-commands

    void produce() throws Exception {
        String topic = opt("topic");
        Integer partition = opts.containsKey("partition") ? Integer.valueOf(opt("partition")) : null;
        List<String[]> recs = new ArrayList<>();
        if (opts.containsKey("spec")) {
            for (String item : opt("spec").split(",")) {
                int eq = item.indexOf('=');
                recs.add(eq < 0 ? new String[] {item, null} : new String[] {item.substring(0, eq), item.substring(eq + 1)});
            }
        }
        long count = num("count", 0);
        String prefix = opt("prefix", "r");
        for (long i = 0; i < count; i++) {
            recs.add(new String[] {prefix + i, "v" + i});
        }
        long batches = num("batches", 1), pause = num("pause-ms", 0);
        Properties extra = new Properties();
        extra.put("acks", "all");
        try (KafkaProducer<String, String> p = producer(extra)) {
            for (long b = 0; b < batches; b++) {
                long first = -1, last = -1;
                int part = -1;
                for (String[] r : recs) {
                    RecordMetadata md = p.send(new ProducerRecord<>(topic, partition, r[0], r[1])).get();
                    first = first < 0 ? md.offset() : first;
                    last = md.offset();
                    part = md.partition();
                }
                emit("produced", "topic", topic, "partition", part, "batch", b, "first", first, "last", last,
                    "records", recs.size());
                if (b + 1 < batches && pause > 0) {
                    Thread.sleep(pause);
                }
            }
        }
    }

    void transactions() throws Exception {
        String topic = opt("topic");
        long n = num("transactions", 10), per = num("records", 5);
        Properties extra = new Properties();
        extra.put("transactional.id", opt("transactional-id"));
        extra.put("enable.idempotence", "true");
        extra.put("acks", "all");
        try (KafkaProducer<String, String> p = producer(extra)) {
            p.initTransactions();
            for (long t = 0; t < n; t++) {
                p.beginTransaction();
                long first = -1, last = -1;
                for (long i = 0; i < per; i++) {
                    RecordMetadata md = p.send(new ProducerRecord<>(topic, 0, "t" + t + "-" + i, "v")).get();
                    first = first < 0 ? md.offset() : first;
                    last = md.offset();
                }
                boolean abort = opts.containsKey("abort-last") && t == n - 1;
                if (abort) {
                    p.abortTransaction();
                } else {
                    p.commitTransaction();
                }
                emit("transaction", "topic", topic, "partition", 0, "index", t, "first", first, "last", last,
                    "style", abort ? "aborted" : "committed");
            }
        }
    }

    void consume() throws Exception {
        List<String> topics = List.of(opt("topic").split(","));
        Properties extra = new Properties();
        extra.put("group.protocol", opt("protocol", "classic"));
        extra.put("isolation.level", opt("isolation", "read_uncommitted"));
        if (extra.get("group.protocol").equals("classic")) {
            extra.put("session.timeout.ms", "10000");
            extra.put("heartbeat.interval.ms", "1000");
        }
        long max = num("max-records", Long.MAX_VALUE);
        String style = opt("commit", "position");
        KafkaConsumer<String, String> c = consumer(opt("group"), extra);
        untilStopped(c);
        Map<TopicPartition, Long> lastPlusOne = new HashMap<>();
        long read = 0;
        try {
            c.subscribe(topics);
            // Everything there is: the end offsets when first assigned (the last stable offsets
            // under read_committed), reached when every position is at or past them.
            Map<TopicPartition, Long> end = null;
            while (!stopping.get() && (end == null || (read < max && !reached(c, end)))) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    if (read >= max) {
                        break;
                    }
                    lastPlusOne.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                    read++;
                }
                if (end == null && !c.assignment().isEmpty()) {
                    end = c.endOffsets(c.assignment());
                }
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            Map<TopicPartition, Long> committed = new HashMap<>(), positions = new HashMap<>();
            for (TopicPartition tp : c.assignment()) {
                positions.put(tp, c.position(tp));
            }
            if (max == 0) {
                // Read nothing: commit the first offset of every partition.
                committed.putAll(c.beginningOffsets(c.assignment()));
            } else {
                switch (style) {
                    case "position" -> committed.putAll(positions);
                    case "last-plus-one" -> committed.putAll(lastPlusOne);
                    default -> die("--commit is position or last-plus-one, not " + style);
                }
            }
            committed.forEach((tp, o) -> commit.put(tp, new OffsetAndMetadata(o)));
            c.commitSync(commit);
            emit("commit", "group", opt("group"), "records", read, "offsets", new Raw(offsetsJSON(committed)),
                "positions", new Raw(offsetsJSON(positions)), "style", style);
            if (opts.containsKey("stay-subscribed")) {
                while (!stopping.get()) {
                    c.poll(Duration.ofMillis(200));
                }
            } else {
                long until = System.currentTimeMillis() + num("stay-ms", 0);
                while (System.currentTimeMillis() < until && !stopping.get()) {
                    c.poll(Duration.ofMillis(200));
                }
            }
        } catch (WakeupException e) {
            // stopped
        } finally {
            c.close(Duration.ofSeconds(10));
            emit("left", "group", opt("group"));
            finish();
        }
    }

    static boolean reached(KafkaConsumer<?, ?> c, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    void committer() throws Exception {
        String topic = opt("topic"), group = opt("group");
        long interval = num("interval-ms", 2000), rate = num("produce-per-sec", 0);
        KafkaConsumer<String, String> c = consumer(group, new Properties());
        untilStopped(c);
        KafkaProducer<String, String> p = rate > 0 ? producer(new Properties()) : null;
        try {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo pi : c.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, pi.partition()));
            }
            c.assign(tps);
            emit("assigned", "group", group, "partitions", tps.size());
            long next = System.currentTimeMillis() + interval, produced = 0;
            long start = System.currentTimeMillis();
            while (!stopping.get()) {
                c.poll(Duration.ofMillis(50));
                long now = System.currentTimeMillis();
                if (p != null) {
                    for (long due = (now - start) * rate / 1000; produced < due; produced++) {
                        p.send(new ProducerRecord<>(topic, "c" + produced, "v"));
                    }
                }
                if (now >= next) {
                    Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                    Map<TopicPartition, Long> offs = new HashMap<>();
                    for (TopicPartition tp : tps) {
                        long pos = c.position(tp);
                        offs.put(tp, pos);
                        commit.put(tp, new OffsetAndMetadata(pos));
                    }
                    c.commitSync(commit);
                    emit("commit", "group", group, "offsets", new Raw(offsetsJSON(offs)));
                    next = now + interval;
                }
            }
        } catch (WakeupException e) {
            // stopped
        } finally {
            if (p != null) {
                p.close(Duration.ofSeconds(5));
            }
            c.close(Duration.ofSeconds(10));
            finish();
        }
    }

    void stale() throws Exception {
        String group = opt("group"), staleTopic = opt("stale-topic"), active = opt("active-topic");
        long staleOffset = num("stale-offset", 0), every = num("commit-ms", 1000);
        Properties extra = new Properties();
        extra.put("group.protocol", "classic");
        extra.put("session.timeout.ms", "10000");
        extra.put("heartbeat.interval.ms", "1000");
        KafkaConsumer<String, String> c = consumer(group, extra);
        untilStopped(c);
        try {
            c.subscribe(List.of(staleTopic));
            while (c.assignment().isEmpty() && !stopping.get()) {
                c.poll(Duration.ofMillis(200));
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            Map<TopicPartition, Long> offs = new HashMap<>();
            for (TopicPartition tp : c.assignment()) {
                commit.put(tp, new OffsetAndMetadata(staleOffset));
                offs.put(tp, staleOffset);
            }
            c.commitSync(commit);
            emit("commit", "group", group, "offsets", new Raw(offsetsJSON(offs)), "topic", staleTopic);
            AtomicBoolean onActive = new AtomicBoolean();
            c.subscribe(List.of(active), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> parts) {}

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> parts) {
                    if (!parts.isEmpty() && parts.stream().allMatch(tp -> tp.topic().equals(active))) {
                        onActive.set(true);
                    }
                }
            });
            long next = 0;
            boolean said = false;
            while (!stopping.get()) {
                c.poll(Duration.ofMillis(200));
                if (!said && onActive.get()) {
                    emit("subscribed", "group", group, "topic", active);
                    said = true;
                }
                long now = System.currentTimeMillis();
                if (onActive.get() && now >= next) {
                    Map<TopicPartition, OffsetAndMetadata> ac = new HashMap<>();
                    Map<TopicPartition, Long> ao = new HashMap<>();
                    for (TopicPartition tp : c.assignment()) {
                        long pos = c.position(tp);
                        ac.put(tp, new OffsetAndMetadata(pos));
                        ao.put(tp, pos);
                    }
                    c.commitSync(ac);
                    emit("commit", "group", group, "offsets", new Raw(offsetsJSON(ao)), "topic", active);
                    next = now + every;
                }
            }
        } catch (WakeupException e) {
            // stopped
        } finally {
            c.close(Duration.ofSeconds(10));
            emit("left", "group", group);
            finish();
        }
    }

    void adminCommit() throws Exception {
        String group = opt("group");
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        Map<TopicPartition, Long> offs = new HashMap<>();
        for (String item : opt("offsets").split(",")) {
            int colon = item.lastIndexOf(':'), eq = item.lastIndexOf('=');
            if (colon < 0 || eq < colon) {
                die("--offsets wants TOPIC:PARTITION=OFFSET, got " + item);
            }
            TopicPartition tp = new TopicPartition(item.substring(0, colon), Integer.parseInt(item.substring(colon + 1, eq)));
            long o = Long.parseLong(item.substring(eq + 1));
            commit.put(tp, new OffsetAndMetadata(o));
            offs.put(tp, o);
        }
        try (Admin a = Admin.create(common())) {
            a.alterConsumerGroupOffsets(group, commit).all().get();
        }
        emit("commit", "group", group, "offsets", new Raw(offsetsJSON(offs)));
    }

    // ToolExit ends a tool's main where its JVM would have exited (Exit.exit, Exit.halt).
    static final class ToolExit extends RuntimeException {
        ToolExit(int code) {
            super("exit " + code, null, false, false);
        }
    }

    // interceptExits sends Kafka's Exit.exit and Exit.halt to onExit, which must throw: the class
    // is org.apache.kafka.common.utils.Exit up to 4.3 and ...utils.internals.Exit from 4.4 on.
    static void interceptExits(java.util.function.IntConsumer onExit) throws Exception {
        Class<?> exitClass;
        try {
            exitClass = Class.forName("org.apache.kafka.common.utils.internals.Exit");
        } catch (ClassNotFoundException e) {
            exitClass = Class.forName("org.apache.kafka.common.utils.Exit");
        }
        Class<?> procedure = Class.forName(exitClass.getName() + "$Procedure");
        Object end = java.lang.reflect.Proxy.newProxyInstance(procedure.getClassLoader(), new Class<?>[] {procedure},
            (proxy, m, args) -> switch (m.getName()) {
                case "execute" -> {
                    onExit.accept((Integer) args[0]);
                    yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "ToolExit";
            });
        exitClass.getMethod("setExitProcedure", procedure).invoke(null, end);
        exitClass.getMethod("setHaltProcedure", procedure).invoke(null, end);
    }

    void tools() throws Exception {
        List<List<String>> cmds = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(opt("file")), StandardCharsets.UTF_8)) {
            if (!line.isEmpty()) {
                cur.add(line);
            } else if (!cur.isEmpty()) {
                cmds.add(cur);
                cur = new ArrayList<>();
            }
        }
        if (!cur.isEmpty()) {
            cmds.add(cur);
        }
        int[] exit = {0};
        boolean[] exited = {false};
        interceptExits(code -> {
            if (!exited[0]) {
                exited[0] = true;
                exit[0] = code;
            }
            throw new ToolExit(code);
        });
        PrintStream out = System.out, err = System.err;
        for (int i = 0; i < cmds.size(); i++) {
            List<String> c = cmds.get(i);
            ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
            exit[0] = 0;
            exited[0] = false;
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            try {
                Class.forName(c.get(0)).getMethod("main", String[].class)
                    .invoke(null, (Object) c.subList(1, c.size()).toArray(new String[0]));
            } catch (InvocationTargetException x) {
                if (!(x.getCause() instanceof ToolExit)) {
                    x.getCause().printStackTrace();
                    if (!exited[0]) {
                        exit[0] = 1;
                    }
                }
            } finally {
                System.out.flush();
                System.err.flush();
                System.setOut(out);
                System.setErr(err);
            }
            emit("tool", "index", i, "exit", exit[0], "stdout", o.toString(StandardCharsets.UTF_8),
                "stderr", e.toString(StandardCharsets.UTF_8));
        }
        System.exit(0);
    }
}
