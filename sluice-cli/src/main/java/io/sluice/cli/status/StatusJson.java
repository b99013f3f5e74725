package io.sluice.cli.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Engine;
import io.sluice.core.EngineStats;
import io.sluice.core.PartitionStats;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * What the status page shows, as of now: the engine's totals and every assigned partition's offsets, lags, pause
 * and how long it has had no leader (once that is said), and the files the sink published. Counts only: the page derives rates and times to catch up from two snapshots, so
 * the server keeps no history.
 *
 * <p>Stateless; {@link #of} may be called from any thread (the engine's and the registry's reads are).
 */
final class StatusJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatusJson() {
    }

    /**
     * The snapshot of {@code engine} at {@code nowMillis}; without one (a run starting, or a merge, whose figures are on
     * {@code /metrics} only), the state of {@code run} (null while starting).
     */
    static String of(Engine engine, RunHealth run, MeterRegistry registry, long nowMillis) {
        ObjectNode root = JSON.createObjectNode();
        root.put("time", nowMillis);
        if (engine == null) {
            root.put("state", run == null ? "STARTING" : run.health().name());
            if (run != null) {
                run.failure().map(Throwable::getMessage).ifPresent(m -> root.put("error", m));
            }
            root.putArray("partitions");
            return root.toString();
        }
        root.put("state", engine.health().name());
        engine.failure().map(Throwable::getMessage).ifPresent(m -> root.put("error", m));
        EngineStats stats = engine.stats();
        root.put("records", stats.completed());
        root.put("consumed", stats.consumed());
        root.put("bytes", stats.consumedBytes());
        root.put("deadLettered", stats.deadLettered());
        root.put("skipped", stats.skipped());
        root.put("failedAttempts", stats.failedAttempts());
        root.put("commits", stats.commits());
        root.put("commitFailures", stats.commitFailures());
        root.put("pausedPartitions", stats.pausedPartitions());
        root.put("stuckPartitions", stats.stuckPartitions());
        root.put("queuedBytes", stats.queuedBytes());
        root.put("budgetBytes", stats.budgetBytes());
        var published = registry.find("sluice.sink.files.published").functionCounters();
        if (published.isEmpty()) {
            root.putNull("filesPublished"); // a sink without files (a mirror's): the page leaves the tile out
        } else {
            root.put("filesPublished", (long) published.stream().mapToDouble(FunctionCounter::count).sum());
        }
        ArrayNode partitions = root.putArray("partitions");
        List<PartitionStats> sorted = engine.partitions().stream()
                .sorted(Comparator.comparing((PartitionStats p) -> p.partition().topic())
                        .thenComparingInt(p -> p.partition().partition()))
                .toList();
        Map<TopicPartition, Duration> noLeader = engine.partitionsWithoutLeader();
        Map<Integer, Duration> silentBrokers = engine.sourceBrokersUnanswered();
        Map<TopicPartition, Integer> ledBySilent = engine.partitionsOfUnansweredSourceBrokers();
        Map<TopicPartition, String> stoppedAtGap = engine.partitionsStoppedAtGap();
        for (PartitionStats p : sorted) {
            ObjectNode n = partitions.addObject();
            n.put("topic", p.partition().topic());
            n.put("partition", p.partition().partition());
            n.put("committedOffset", p.committedOffset());
            n.put("watermark", p.watermark());
            n.put("lag", p.lag());
            n.put("durableLag", p.durableLag());
            n.put("paused", p.paused());
            n.put("stuckMillis", p.stuckMillis());
            String lost = stoppedAtGap.get(p.partition());
            if (lost != null) {
                n.put("stoppedAtGap", lost); // records it was to read are gone: it reads no further
            }
            Duration unled = noLeader.get(p.partition());
            if (unled != null) {
                n.put("noLeaderSeconds", unled.toSeconds()); // its lag is as of its last answer
            }
            Integer silentBroker = ledBySilent.get(p.partition());
            Duration silentFor = silentBroker == null ? null : silentBrokers.get(silentBroker);
            if (silentFor != null) {
                n.put("silentBroker", silentBroker); // the broker it is read from does not answer: not read
                n.put("silentBrokerSeconds", silentFor.toSeconds());
            }
        }
        return root.toString();
    }
}
