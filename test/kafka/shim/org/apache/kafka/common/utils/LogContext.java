// The one class Kafka 4.3.1's storage test jar (LocalTieredStorage) needs that Kafka 4.4.0 no
// longer has: 4.4.0 moved LogContext to org.apache.kafka.common.utils.internals. The test jar
// calls only new LogContext(String) and logger(Class), both inherited here. scripts/kafka.sh
// compiles this file at start for the timers broker and puts it on that broker's classpath;
// nothing else uses it.
package org.apache.kafka.common.utils;

public class LogContext extends org.apache.kafka.common.utils.internals.LogContext {
    public LogContext(String logPrefix) {
        super(logPrefix);
    }

    public LogContext() {
        super();
    }
}
