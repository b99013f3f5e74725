package io.sluice.reassign.check;

import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.ClusterJournalRecord;
import io.sluice.reassign.journal.ConfigChange;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Something a reassignment left on the cluster: a throttle no move uses, a temporary config a journal (a file, or
 * the cluster's journal topic) says was never restored, or a move that does not progress; or a broker whose configs
 * cannot be read, so that what it holds is not known.
 *
 * <p>Immutable.
 */
public sealed interface Leftover {

    /** One line for a person. */
    String describe();

    /** A throttle config set on a broker or topic while no move under way needs it. */
    record Throttle(ConfigResource resource, String key, String value) implements Leftover {
        @Override
        public String describe() {
            return "throttle " + key + "=" + value + " on " + where(resource) + ": no move under way needs it";
        }
    }

    /** A config a run changed, per its journal, and did not restore. */
    record Unrestored(Path journal, ConfigChange change) implements Leftover {
        @Override
        public String describe() {
            return "temporary " + change.key() + "=" + change.value() + " on " + where(change.resource())
                    + " (was " + (change.previous() == null ? "not set" : change.previous()) + "), per the journal "
                    + journal;
        }
    }

    /**
     * A config a run changed, per the cluster's journal topic, still holding the value the run set while no move
     * under way needs it: the run was killed and its journal file is gone or elsewhere.
     */
    record InJournalTopic(ClusterJournalRecord record) implements Leftover {
        @Override
        public String describe() {
            ConfigChange change = record.change();
            return "temporary " + change.key() + "=" + change.value() + " on " + where(change.resource())
                    + " (was " + (change.previous() == null ? "not set" : change.previous()) + "), per the journal "
                    + "topic " + ClusterJournal.TOPIC + ": " + record.origin();
        }
    }

    /** A move under way that makes no progress: a new replica on a broker that is gone, or not growing. */
    record StalledMove(TopicPartition partition, List<Integer> adding, String why) implements Leftover {
        @Override
        public String describe() {
            return "stalled move of " + partition + " to brokers " + adding + ": " + why;
        }
    }

    /**
     * A broker registered with the cluster that does not answer (down, or fenced): what is set on it cannot be read,
     * nor removed, until it is back. {@code journaled} holds the run's temporary configs the journal topic names on it.
     */
    record SilentBroker(String broker, List<String> journaled) implements Leftover {
        @Override
        public String describe() {
            return "broker " + broker + " does not answer (down, or fenced): a throttle left on it cannot be read"
                    + (journaled.isEmpty() ? "" : " (the journal topic " + ClusterJournal.TOPIC + " names "
                    + String.join(", ", journaled) + " on it)") + "; check again once it is back";
        }
    }

    /** A config's place in words: a broker, the cluster default or a topic. */
    static String where(ConfigResource resource) {
        if (resource.type() == ConfigResource.Type.BROKER) {
            return resource.name().isEmpty() ? "every broker (the cluster default)" : "broker " + resource.name();
        }
        return "topic " + resource.name();
    }
}
