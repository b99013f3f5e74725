package io.sluice.merge.commit;

import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.core.commit.TargetWait;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.owners.OwnersGroup;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Exactly once: the mirror's commit point ({@link TargetTransactionCommit}), one transaction per output partition
 * holding the merged records and, as the progress group's offset, the partition's state; a claim fences every earlier
 * owner for good. A claim also refuses a partition the owners group holds a state for: it was merged at least once,
 * and starting over here would write everything again.
 *
 * <p>Threading: as {@link MergeCommit}.
 */
public final class TransactionalCommit implements MergeCommit {

    private final TargetTransactionCommit transactions;
    private final MergeConfig config;
    private final OwnersGroup owners;

    public TransactionalCommit(TargetTransactionCommit transactions, MergeConfig config, OwnersGroup owners) {
        this.transactions = transactions;
        this.config = config;
        this.owners = owners;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        DeliverySwitch.refuse(owners.committed(partitions, timeout).keySet(), config, config.ownersGroup(),
                "at-least-once");
        return transactions.claim(partitions, timeout);
    }

    @Override
    public TargetTransactionCommit.Sender sender(TopicPartition output) {
        return transactions.sender(output);
    }

    @Override
    public Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
        return transactions.producerMetrics();
    }

    @Override
    public TargetWait.Kind commitWait() {
        return TargetWait.Kind.COMMIT;
    }

    @Override
    public Map<TopicPartition, String> transactionalIds() {
        return transactions.transactionalIds();
    }

    @Override
    public void flush(TopicPartition output) {
        // the transaction's commit waits for every send in it
    }

    @Override
    public void commit(TopicPartition output, OffsetAndMetadata state, Duration timeout) {
        transactions.commitNow(Map.of(output, state), timeout);
    }

    @Override
    public void abandon() {
        transactions.abandon();
    }

    @Override
    public void release(Collection<TopicPartition> partitions, boolean lost) {
        transactions.release(partitions, lost);
    }

    @Override
    public void close() {
        transactions.close();
    }
}
