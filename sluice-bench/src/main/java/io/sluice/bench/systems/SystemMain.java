package io.sluice.bench.systems;

import io.sluice.bench.Scenario;
import java.util.Locale;

/**
 * One system's run of one scenario, in a JVM of its own: {@code SystemMain <system> <bootstrap> <topic> <scenario>
 * <smoke>}. Prints one line {@code RESULT <records> <seconds> <extrapolated>}.
 */
public final class SystemMain {

    private SystemMain() {
    }

    public static void main(String[] args) throws Exception {
        String system = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        Scenario scenario = Scenario.named(args[3], Boolean.parseBoolean(args[4]));
        boolean partial = scenario.prefix() > 0 && system.equals(scenario.baseline());
        Measurement m = new Measurement(partial ? scenario.prefix() : scenario.records());
        Handler handler = new Handler(scenario.handlerMillis(), m);
        switch (system) {
            case "plain-consumer" -> PlainConsumerSystem.run(bootstrap, topic, handler, m);
            case "per-partition" -> PerPartitionSystem.run(bootstrap, topic, scenario.partitions(), handler, m);
            case "sluice" -> SluiceSystem.run(bootstrap, topic, scenario.concurrency(), handler, m);
            case "parallel-consumer" -> ParallelConsumerSystem.run(bootstrap, topic, scenario.concurrency(), handler, m);
            default -> throw new IllegalArgumentException("unknown system " + system);
        }
        System.out.println(String.format(Locale.ROOT, "RESULT %d %.6f %s %d", m.target(), m.seconds(), partial,
                m.checksum()));
        System.out.flush();
        System.exit(0);
    }

    /** The scenario's work per record: sum the value's length, and wait if the scenario says so. */
    record Handler(int millis, Measurement measurement) {
        void handle(byte[] value) throws InterruptedException {
            if (millis > 0) {
                Thread.sleep(millis);
            }
            measurement.handled(value == null ? 0 : value.length);
        }
    }

    static String group(String system) {
        return "bench-" + system + "-" + Long.toHexString(System.nanoTime());
    }
}
