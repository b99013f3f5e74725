package io.sluice.cli.produce;

import io.sluice.core.ClusterConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * Whether an exactly-once import has a committed position: its progress group holds an offset. Asked before the
 * claim, to find an import that was named otherwise: by an earlier version, or after fewer arguments (a pattern the
 * shell expanded before more files matched it).
 *
 * <p>Threading: stateless.
 */
final class ImportProgress {

    private static final long TIMEOUT_SECONDS = 30;

    private ImportProgress() {
    }

    static boolean exists(Map<String, Object> clientProperties, String name) {
        try (Admin admin = Admin.create(ClusterConnection.of(clientProperties))) {
            return exists(admin, name);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return false; // not known: the claim that follows meets the cluster's trouble itself and says it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Of {@code names}, the last one that has a committed position, or empty: one listing of the cluster's groups,
     * then a look at the positions of those named.
     */
    static Optional<String> lastWithPosition(Map<String, Object> clientProperties, List<String> names) {
        try (Admin admin = Admin.create(ClusterConnection.of(clientProperties))) {
            Set<String> groups = new HashSet<>();
            admin.listGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .forEach(g -> groups.add(g.groupId()));
            for (int i = names.size() - 1; i >= 0; i--) {
                String name = names.get(i);
                if (groups.contains(ProduceCommand.PROGRESS_GROUP_PREFIX + name) && exists(admin, name)) {
                    return Optional.of(name);
                }
            }
            return Optional.empty();
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return Optional.empty(); // not known: the claim that follows meets the cluster's trouble itself and says it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static boolean exists(Admin admin, String name)
            throws ExecutionException, TimeoutException, InterruptedException {
        Map<?, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(ProduceCommand.PROGRESS_GROUP_PREFIX
                + name).partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return offsets.values().stream().anyMatch(o -> o != null);
    }
}
