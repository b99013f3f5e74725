package io.sluice.cli.produce;

import io.sluice.cli.RunFailure;
import io.sluice.cli.run.EngineRun;
import io.sluice.core.ClusterConnection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * The committed positions of the exactly-once imports named with one prefix (a topic's default names): asked before the
 * claim, to find this import when it was named otherwise (by an earlier version, or after fewer arguments: a pattern
 * the shell expanded before more files matched it), and another import that already sent some of these files.
 *
 * <p>Threading: stateless.
 */
final class ImportProgress {

    private static final long TIMEOUT_SECONDS = 30;
    /** The hash in a default import name: {@code Inputs.argumentsHash} and {@code ImportPosition.listHash}. */
    private static final int HASH_DIGITS = 16;

    private ImportProgress() {
    }

    /**
     * Whether {@code group} is {@code prefix} and a default name's hash (16 hex digits), not merely a group whose name
     * starts so: imports into topic {@code orders-eu} ({@code produce-orders-eu-...}) are not imports into
     * {@code orders}, whose files they would otherwise claim to have sent.
     */
    static boolean isDefaultName(String group, String prefix) {
        return group.length() == prefix.length() + HASH_DIGITS && group.startsWith(prefix)
                && group.substring(prefix.length()).chars().allMatch(c -> Character.digit(c, 16) >= 0
                        && !Character.isUpperCase(c));
    }

    /**
     * Each import named {@code prefix...} that has a committed position, with its metadata: one listing of the
     * cluster's groups, then one look at the positions of those so named.
     *
     * @throws RunFailure when the cluster does not tell: a new import begun without knowing would send again what an
     *                    earlier one of these files committed
     */
    static Map<String, String> positions(Map<String, Object> clientProperties, String prefix) throws RunFailure {
        String groupPrefix = ProduceCommand.PROGRESS_GROUP_PREFIX + prefix;
        try (Admin admin = Admin.create(ClusterConnection.of(clientProperties))) {
            Map<String, ListConsumerGroupOffsetsSpec> named = new HashMap<>();
            admin.listGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).forEach(g -> {
                if (isDefaultName(g.groupId(), groupPrefix)) {
                    named.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
                }
            });
            Map<String, String> positions = new HashMap<>();
            if (named.isEmpty()) {
                return positions;
            }
            Map<String, Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata>> offsets = admin
                    .listConsumerGroupOffsets(named).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            offsets.forEach((group, byPartition) -> byPartition.values().stream().filter(o -> o != null).findFirst()
                    .ifPresent(o -> positions.put(group.substring(ProduceCommand.PROGRESS_GROUP_PREFIX.length()),
                            o.metadata())));
            return positions;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new RunFailure("cannot tell whether an exactly-once import of these files began before (the "
                    + "cluster's groups could not be read: " + EngineRun.describe(cause) + "); beginning a new one "
                    + "could send its lines again. Run the command again when the cluster answers, or name the "
                    + "import with --name", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while reading the imports' positions", e);
        }
    }
}
