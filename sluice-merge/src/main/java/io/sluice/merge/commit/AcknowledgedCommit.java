package io.sluice.merge.commit;

import io.sluice.core.ClusterConnection;
import io.sluice.core.commit.ProducerCloser;
import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.owners.OwnersGroup;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * At least once: each output partition has its own idempotent producer (acks=all, no transaction: records are visible
 * as soon as they are written), and its state is committed only after {@link #flush} saw every record sent before it
 * acknowledged — so everything below a committed position is in the output, whatever crashes. The state is
 * committed as the owners group's offset of the output partition, by this instance's member of that group: the group
 * coordinator takes it only from the member of the current generation that owns the partition, so an instance that
 * lost its partitions (frozen past its session, say) can never commit again.
 *
 * <p>What is not fenced: the records themselves. An instance frozen past its session writes, once thawed, what its
 * producer still held and what it merges until its first commit is refused (at most one turn of the merge per
 * partition, docs/merge.md): repeats, after the new owner's records, out of merge order. Nothing is lost, and verify
 * names them.
 *
 * <p>Threading: as {@link MergeCommit}.
 */
public final class AcknowledgedCommit implements MergeCommit {

    private final MergeConfig config;
    private final Map<String, Object> producerProperties;
    private final OwnersGroup owners;
    private final Map<TopicPartition, KafkaProducer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

    /** {@code producerProperties}: the target's connection and batching; idempotence and acks are set here. */
    public AcknowledgedCommit(MergeConfig config, Map<String, Object> producerProperties, OwnersGroup owners) {
        this.config = config;
        this.producerProperties = new HashMap<>(producerProperties);
        this.producerProperties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        this.producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producerProperties.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        this.owners = owners;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        DeliverySwitch.refuse(progressOf(partitions, timeout), config, config.progressGroup(), "exactly-once");
        for (TopicPartition tp : partitions) {
            KafkaProducer<byte[], byte[]> earlier = producers.put(tp, new KafkaProducer<>(producerProperties,
                    new ByteArraySerializer(), new ByteArraySerializer()));
            if (earlier != null) {
                earlier.close(Duration.ZERO); // an assignment never released (lost without a callback)
            }
        }
        return owners.committed(partitions, timeout);
    }

    /** The partitions the exactly-once progress group holds a state for. */
    private Set<TopicPartition> progressOf(Set<TopicPartition> partitions, Duration timeout) {
        try (Admin admin = Admin.create(ClusterConnection.of(producerProperties))) {
            Map<TopicPartition, OffsetAndMetadata> found = admin.listConsumerGroupOffsets(
                            Map.of(config.progressGroup(), new ListConsumerGroupOffsetsSpec().topicPartitions(partitions)),
                            new ListConsumerGroupOffsetsOptions())
                    .partitionsToOffsetAndMetadata(config.progressGroup())
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            found.values().removeIf(java.util.Objects::isNull);
            return found.keySet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while claiming " + partitions, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read group '" + config.progressGroup() + "' in the target while "
                    + "claiming " + partitions + ": " + e.getMessage(), e);
        }
    }

    @Override
    public TargetTransactionCommit.Sender sender(TopicPartition output) {
        KafkaProducer<byte[], byte[]> producer = producer(output);
        return producer::send;
    }

    @Override
    public Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
        return producers.values().stream().<Map<MetricName, ? extends Metric>>map(KafkaProducer::metrics).toList();
    }

    @Override
    public void flush(TopicPartition output) {
        producer(output).flush();
    }

    @Override
    public void commit(TopicPartition output, OffsetAndMetadata state, Duration timeout) throws Exception {
        try {
            owners.commit(Map.of(output, state), timeout);
        } catch (CommitFailedException e) {
            throw new IllegalStateException("the commit of " + output + " was refused: this instance's member of the "
                    + "owners group '" + config.ownersGroup() + "' no longer owns it (frozen or cut off past its "
                    + "session, another instance took it over). The merge stops; the new owner goes on from the "
                    + "positions committed before, and what this instance wrote since is written again (at least "
                    + "once).", e);
        }
    }

    /** Closes the producers at once: a flush waiting for the target's answers returns, its sends failed. */
    @Override
    public void abandon() {
        ProducerCloser.closeAtOnce(List.copyOf(producers.values()), "sluice-merge-abandon");
    }

    @Override
    public void release(Collection<TopicPartition> partitions, boolean lost) {
        for (TopicPartition tp : partitions) {
            KafkaProducer<byte[], byte[]> producer = producers.remove(tp);
            if (producer != null) {
                // lost: another instance may own the partition already, so what is still unsent is dropped
                producer.close(lost ? Duration.ZERO : Duration.ofSeconds(5));
            }
        }
    }

    @Override
    public void close() {
        release(Set.copyOf(producers.keySet()), false);
    }

    private KafkaProducer<byte[], byte[]> producer(TopicPartition output) {
        KafkaProducer<byte[], byte[]> producer = producers.get(output);
        if (producer == null) {
            throw new IllegalStateException(output + " is not claimed by this instance: no producer to write with");
        }
        return producer;
    }
}
