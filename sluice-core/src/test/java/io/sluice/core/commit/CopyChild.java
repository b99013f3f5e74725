package io.sluice.core.commit;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import java.time.Duration;

/**
 * A copy from one topic to another through a target transaction, in a child JVM, for crash tests:
 * {@code CopyChild <bootstrap> <source> <target> <group> <until-end>}. SIGTERM closes the engine (drain, last commit)
 * through a shutdown hook, as the command does; with {@code until-end} true it stops by itself at the end offsets seen
 * at its start and exits 0 only when it stopped cleanly.
 */
public final class CopyChild {

    private CopyChild() {
    }

    public static void main(String[] args) {
        String bootstrap = args[0];
        TargetTransactionCommit transactions = CopiedTopics.transactions(bootstrap, args[3], args[3] + "-progress",
                args[2]);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(bootstrap)
                .topics(args[1])
                .groupId(args[3])
                // static membership: a restarted child takes its place at once, without waiting for a session timeout
                .consumerProperty("group.instance.id", "copy-child")
                .consumerProperty("session.timeout.ms", 3_000)
                .consumerProperty("heartbeat.interval.ms", 500)
                .commitInterval(Duration.ofMillis(100))
                .drainTimeout(Duration.ofSeconds(10))
                .untilEnd(Boolean.parseBoolean(args[4]))
                .commitPoint(transactions.factory())
                .build();
        Engine engine = Engine.startSink(config, new CopySink(transactions, args[2]));
        Runtime.getRuntime().addShutdownHook(new Thread(engine::close, "close-engine"));
        System.out.println("SLUICE-READY");
        System.out.flush();
        engine.awaitTermination(Duration.ofDays(1));
        System.out.println("SLUICE-ENDED " + engine.health() + engine.failure().map(f -> " " + f).orElse(""));
        System.exit(engine.health() == Health.STOPPED ? 0 : 1);
    }
}
