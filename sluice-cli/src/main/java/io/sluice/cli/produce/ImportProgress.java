package io.sluice.cli.produce;

import io.sluice.core.ClusterConnection;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * Whether an exactly-once import has a committed position: its progress group holds an offset. Asked before the
 * claim, to find an import an earlier version named otherwise.
 *
 * <p>Threading: stateless.
 */
final class ImportProgress {

    private static final long TIMEOUT_SECONDS = 30;

    private ImportProgress() {
    }

    static boolean exists(Map<String, Object> clientProperties, String name) {
        try (Admin admin = Admin.create(ClusterConnection.of(clientProperties))) {
            Map<?, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(ProduceCommand.PROGRESS_GROUP_PREFIX
                    + name).partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return offsets.values().stream().anyMatch(o -> o != null);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return false; // not known: the claim that follows meets the cluster's trouble itself and says it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
