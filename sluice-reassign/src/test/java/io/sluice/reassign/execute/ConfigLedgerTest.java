package io.sluice.reassign.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.cluster.ConfigStore;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Temporary configs set and restored through the journal, with a broker that does not answer. */
class ConfigLedgerTest {

    @TempDir
    Path dir;

    /** The cluster's configs, in memory; the brokers named in {@link #silent} do not answer. */
    static final class Configs implements ConfigStore {
        final Map<String, String> values = new HashMap<>();
        final List<String> silent = new ArrayList<>();
        final List<String> deleted = new ArrayList<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public Optional<String> dynamicValue(ConfigResource resource, String key) {
            return Optional.ofNullable(values.get(resource.name() + "/" + key));
        }

        @Override
        public void set(ConfigResource resource, String key, String value) {
            asked.add(resource.name() + "/" + key);
            if (deleted.contains(resource.name())) {
                throw new ClusterException("cannot delete " + key + " on topic " + resource.name() + ": This server "
                        + "does not host this topic-partition.", new org.apache.kafka.common.errors
                        .UnknownTopicOrPartitionException("This server does not host this topic-partition."));
            }
            if (silent.contains(resource.name())) {
                throw new ClusterException("cannot delete " + key + " on broker " + resource.name() + ": no answer "
                        + "within 60 s", null);
            }
            if (value == null) {
                values.remove(resource.name() + "/" + key);
            } else {
                values.put(resource.name() + "/" + key, value);
            }
        }
    }

    /**
     * A broker that does not answer keeps its configs in the journal, asked once, while every other is restored: a
     * cancel with one broker down stopped at it, left the other brokers' throttles and said only the error (a new
     * user's run).
     */
    @Test
    void aBrokerThatDoesNotAnswerKeepsItsConfigsAndTheOthersAreRestored() {
        Configs configs = new Configs();
        Path file = dir.resolve("plan.json.journal");
        List<TemporaryConfig> throttles = List.of(
                TemporaryConfig.broker(4, "leader.replication.throttled.rate", "1000"),
                TemporaryConfig.broker(4, "follower.replication.throttled.rate", "1000"),
                TemporaryConfig.broker(1, "leader.replication.throttled.rate", "1000"),
                TemporaryConfig.topic("orders", "retention.bytes", "5000"));
        configs.values.put("orders/retention.bytes", "9000");
        try (Journal journal = Journal.open(file)) {
            ConfigLedger ledger = new ConfigLedger(configs, journal);
            ledger.apply(throttles);
            configs.silent.add("4");
            configs.asked.clear();
            List<String> said = new ArrayList<>();
            ClusterException left = assertThrows(RestoreIncompleteException.class, () -> ledger.restoreAll(said::add,
                    "sluice reassign cancel " + file));
            assertEquals("could not restore 2 configs (broker 4 leader.replication.throttled.rate, broker 4 "
                    + "follower.replication.throttled.rate): cannot delete leader.replication.throttled.rate on broker "
                    + "4: no answer within 60 s. Every other config is restored; the journal " + file + " keeps "
                    + "these: `sluice reassign cancel " + file + "` restores them once it answers (or `sluice reassign "
                    + "check --fix`)",
                    left.getMessage());
            assertEquals(List.of("4/leader.replication.throttled.rate", "1/leader.replication.throttled.rate",
                    "orders/retention.bytes"), configs.asked, "broker 4 asked once");
            assertEquals(Map.of("4/leader.replication.throttled.rate", "1000", "4/follower.replication.throttled.rate",
                    "1000", "orders/retention.bytes", "9000"), configs.values);
            assertEquals(2, journal.pending().size());
            assertTrue(said.contains("restored topic orders retention.bytes to 9000"), said.toString());
        }
        configs.silent.clear();
        try (Journal journal = Journal.open(file)) {
            new ConfigLedger(configs, journal).restoreAll(line -> { }, "again");
            assertEquals(Map.of("orders/retention.bytes", "9000"), configs.values, "restored once it answers");
        }
    }

    /** A topic deleted since the run set its config has nothing to restore: the journal can be over (a review's case). */
    @Test
    void aTopicDeletedSinceHasNothingToRestore() {
        Configs configs = new Configs();
        Path file = dir.resolve("gone.json.journal");
        try (Journal journal = Journal.open(file)) {
            ConfigLedger ledger = new ConfigLedger(configs, journal);
            ledger.apply(List.of(TemporaryConfig.topic("gone", "retention.bytes", "5000")));
            configs.deleted.add("gone");
            List<String> said = new ArrayList<>();
            ledger.restoreAll(said::add, "again");
            assertEquals(List.of("topic gone is gone: nothing to restore of its retention.bytes"), said);
            assertEquals(List.of(), journal.pending());
        }
    }
}
