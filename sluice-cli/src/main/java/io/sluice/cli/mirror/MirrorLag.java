package io.sluice.cli.mirror;

import io.sluice.cli.RunFailure;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.lag.LagInputs;
import io.sluice.core.ClusterConnection;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.MirrorProgress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code sluice lag MIRROR.yaml}: the source topics' lag behind the mirror's progress, wherever its delivery keeps
 * it (exactly once: in the target cluster).
 *
 * <p>Stateless.
 */
public final class MirrorLag {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** How long the probe of the source waits for each address, as the lag command's own probe. */
    private static final Duration PROBE_WAIT = Duration.ofSeconds(5);

    private MirrorLag() {
    }

    public static LagInputs inputs(MirrorConfig config) throws RunFailure {
        String group = config.delivery() == MirrorDelivery.EXACTLY_ONCE ? config.progressGroup() : config.sourceGroup();
        Map<String, Object> progressCluster = config.delivery() == MirrorDelivery.EXACTLY_ONCE
                ? config.targetProperties() : config.sourceProperties();
        return new LagInputs(group, topics(config), config.sourceProperties(), List.of(), new LagInputs.Progress() {
            @Override
            public Map<TopicPartition, Long> committed(Set<TopicPartition> partitions) {
                try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT)) {
                    return progress.copiedBefore(partitions);
                } catch (KafkaException e) {
                    throw new IllegalStateException("cannot read the progress of mirror " + config.name() + " in "
                            + progressCluster.get("bootstrap.servers") + ": " + e.getMessage(), e);
                }
            }

            @Override
            public Map<String, Object> clusterProperties() {
                return progressCluster;
            }
        });
    }

    /** The source topics copied: those listed, or those the pattern matches now. */
    private static List<String> topics(MirrorConfig config) throws RunFailure {
        if (config.topicPattern().isEmpty()) {
            return config.topics();
        }
        try {
            // before the admin client, as for named topics: a wrong port was said after a minute in the client's words
            new BootstrapProbe(PROBE_WAIT).verify(config.sourceProperties());
        } catch (BootstrapProbe.BootstrapException e) {
            throw new RunFailure((e.mismatch() ? "" : "no broker answers: ") + e.getMessage(), e);
        }
        Admin admin = Admin.create(ClusterConnection.of(config.sourceProperties()));
        try {
            List<String> matching = admin.listTopics().names().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).stream()
                    .filter(name -> config.topicPattern().get().matcher(name).matches()).sorted().toList();
            if (matching.isEmpty()) {
                throw new RunFailure("no source topic matches '" + config.topicPattern().get() + "'");
            }
            return matching;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new RunFailure("cannot list the source's topics: " + (e.getCause() != null ? e.getCause().getMessage()
                    : "no answer within " + TIMEOUT.toSeconds() + " s"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while listing the source's topics", e);
        } finally {
            admin.close(Duration.ZERO); // a close waits for the listing it gave up on otherwise: 30 s more
        }
    }
}
