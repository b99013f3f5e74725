package io.sluice.bench.systems;

import io.sluice.merge.Merge;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorDelivery;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * One system of the merge benchmark, in a JVM of its own: {@code MergeSystemMain <system> <west bootstrap> <west
 * topic> <east bootstrap> <east topic> <target bootstrap> <output> <name>}. {@code sluice-merge} merges both inputs
 * into the output topic (exactly once, default settings, bounded by the inputs' ends); {@code sluice-mirror} copies
 * each input with a mirror of its own (exactly once) into the target under the prefix {@code <output>}: the same
 * records copied instead of merged. It prints {@code DONE <json>} and waits to be stopped ({@link
 * MeasuredFromOutside}).
 */
public final class MergeSystemMain {

    /** The inputs' names in the merge, in their tie-break order. */
    public static final String WEST = "west";
    public static final String EAST = "east";

    private static final Duration TIMEOUT = Duration.ofMinutes(40);

    private MergeSystemMain() {
    }

    public static void main(String[] args) throws Exception {
        String system = args[0];
        MeasuredFromOutside.runThenWait("DONE", "records", () -> switch (system) {
            case "sluice-merge" -> merge(config(args[7], args[1], args[2], args[3], args[4], args[5], args[6]));
            case "sluice-mirror" -> mirror(args[1], args[2], args[3], args[4], args[5], args[6]);
            default -> throw new IllegalArgumentException("unknown merge system " + system);
        });
    }

    /**
     * The merge {@code name} of the two inputs into {@code output}: the child's and the audit's, which must agree
     * (the audit finds the committed positions by the name and the inputs).
     */
    public static MergeConfig config(String name, String westServers, String westTopic, String eastServers,
            String eastTopic, String targetServers, String output) {
        return MergeConfig.builder().name(name)
                .input(new MergeInput(WEST, Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, westServers),
                        westTopic))
                .input(new MergeInput(EAST, Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, eastServers),
                        eastTopic))
                .targetProperties(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, targetServers))
                .outputTopic(output)
                .untilEnd(true)
                .build();
    }

    private static long merge(MergeConfig config) throws Exception {
        try (Merge merge = Merge.start(config)) {
            if (!merge.awaitEnd(TIMEOUT)) {
                throw new IllegalStateException("the merge did not reach the inputs' ends within " + TIMEOUT);
            }
            return merge.counts().merged();
        }
    }

    /** Both inputs' mirrors run at once, as the merge reads both inputs at once. */
    private static long mirror(String westServers, String westTopic, String eastServers, String eastTopic,
            String targetServers, String prefix) {
        try (Mirror west = Mirror.start(MirrorCopierMain.config(westServers, westTopic, targetServers, prefix, null,
                MirrorDelivery.EXACTLY_ONCE));
                Mirror east = Mirror.start(MirrorCopierMain.config(eastServers, eastTopic, targetServers, prefix,
                        null, MirrorDelivery.EXACTLY_ONCE))) {
            return MirrorCopierMain.awaitEnd(west) + MirrorCopierMain.awaitEnd(east);
        }
    }
}
