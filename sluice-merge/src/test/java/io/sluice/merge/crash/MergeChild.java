package io.sluice.merge.crash;

import io.sluice.merge.Merge;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInput;
import io.sluice.merge.MergeInputs;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A merge of two inputs in a child JVM, for the crash tests:
 * {@code MergeChild <input 0 bootstrap> <topic 0> <input 1 bootstrap> <topic 1> <target bootstrap> <output> <name>
 * [<instance ID> [<delivery>]]}.
 * It merges to the inputs' ends unless it halts at a crash point or is killed first. Its owners-group member has a
 * fixed instance ID (static membership), so a restart with the same ID takes the partitions at once.
 */
public final class MergeChild {

    static final String READY = "SLUICE-READY";
    static final String INSTANCE = "merge-crashing";
    static final String FAILED = "SLUICE-FAILED ";

    private MergeChild() {
    }

    public static void main(String[] args) {
        boolean failed = false;
        try (Merge merge = Merge.start(config(args).build(), member(args.length > 7 ? args[7] : INSTANCE))) {
            System.out.println(READY);
            System.out.flush();
            try {
                merge.awaitEnd(Duration.ofMinutes(5));
            } catch (Exception e) {
                // said before the close, which can take a while: a zombie's waits on the owners group
                failed = failed(e);
            }
        } catch (Exception e) {
            failed = failed || failed(e);
        }
        System.exit(failed ? 1 : 0);
    }

    /** Says why, with every cause (a client's error names the fence only as its cause). */
    private static boolean failed(Exception e) {
        StringBuilder why = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            why.append(" (caused by ").append(cause).append(')');
        }
        System.out.println(FAILED + why);
        System.out.flush();
        return true;
    }

    /** The merge the child runs, and the restart that finishes what it left. */
    static MergeConfig.Builder config(String... args) {
        return MergeConfig.builder().name(args[6])
                .input(new MergeInput("west", fetchingLittle(args[0]), args[1]))
                .input(new MergeInput("east", fetchingLittle(args[2]), args[3]))
                .targetProperties(plaintext(args[4])).outputTopic(args[5])
                .commitInterval(Duration.ofMillis(50)).budgetBytes(1 << 20).untilEnd(true)
                .delivery(args.length > 8 ? MergeDelivery.valueOf(args[8]) : MergeDelivery.EXACTLY_ONCE);
    }

    static Map<String, Object> member() {
        return member(INSTANCE);
    }

    static Map<String, Object> member(String instance) {
        Map<String, Object> member = new HashMap<>(MergeInputs.quickMember());
        member.put("group.instance.id", instance);
        return member;
    }

    /**
     * An input read a few records a fetch: the merge of 6,000 small records takes many fetches and commits, so a kill
     * at a seeded moment lands mid-merge (read in large fetches, the whole merge fitted between two looks at the
     * committed positions on a CI run, and the kill came after its end).
     */
    private static Map<String, Object> fetchingLittle(String bootstrap) {
        Map<String, Object> props = new HashMap<>(plaintext(bootstrap));
        props.put("max.partition.fetch.bytes", 2_048);
        props.put("max.poll.records", 20);
        return props;
    }

    private static Map<String, Object> plaintext(String bootstrap) {
        return Map.of("bootstrap.servers", bootstrap, "security.protocol", "PLAINTEXT");
    }
}
