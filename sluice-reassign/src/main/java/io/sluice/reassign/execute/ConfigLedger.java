package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.cluster.ConfigStore;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import java.util.function.Consumer;

/**
 * Sets temporary configs and takes them back, each change journaled before it is made: the value before is read
 * from the cluster the first time only, so a resumed run (which sets the same configs again) still restores what
 * was there before the first run, not its own throttle.
 *
 * <p>Threading: one run's thread.
 */
public final class ConfigLedger {

    private final ConfigStore configs;
    private final Journal journal;

    public ConfigLedger(ConfigStore configs, Journal journal) {
        this.configs = configs;
        this.journal = journal;
    }

    /**
     * Sets each config, journaling its value before first. A topic deleted since the plan was made has nothing to
     * set: skipped, or every resume failed on it.
     *
     * @return the configs set (those of deleted topics left out)
     */
    public List<TemporaryConfig> apply(List<TemporaryConfig> temporary) {
        List<String> journaled = journal.pending().stream().map(ConfigChange::id).toList();
        List<TemporaryConfig> set = new ArrayList<>();
        for (TemporaryConfig config : temporary) {
            try {
                if (!journaled.contains(config.id())) {
                    ConfigChange change = new ConfigChange(config.type(), config.name(), config.key(), config.value(),
                            configs.dynamicValue(new ConfigResource(config.type(),
                                    config.name()), config.key()).orElse(null));
                    journal.changing(change);
                }
                configs.set(new ConfigResource(config.type(), config.name()), config.key(),
                        config.value());
                set.add(config);
            } catch (ClusterException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
        return set;
    }

    /**
     * Puts back every config the journal says was changed and not restored yet; {@code said} hears each. A broker or
     * topic that does not answer keeps its configs in the journal, and the others are restored all the same: the
     * first one that failed stopped the rest (a cancel with one broker down left every other broker's throttle, and
     * said only the error, a new user's run). A topic deleted since has nothing to restore.
     *
     * @param again the command that restores what is left, for the words when something is
     * @throws RestoreIncompleteException naming what is left, once every other config is restored
     */
    public void restoreAll(Consumer<String> said, String again) {
        Map<ConfigResource, String> unanswered = new LinkedHashMap<>();
        List<ConfigChange> left = new ArrayList<>();
        for (ConfigChange change : journal.pending()) {
            if (unanswered.containsKey(change.resource())) {
                left.add(change); // not asked again: another wait as long for the same broker or topic
                continue;
            }
            try {
                restore(configs, change);
            } catch (ClusterException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    // a deleted topic's config went with it: restoring it would fail for ever, and the journal with it
                    journal.restored(change);
                    said.accept("topic " + change.name() + " is gone: nothing to restore of its " + change.key());
                    continue;
                }
                unanswered.put(change.resource(), e.getMessage());
                left.add(change);
                continue;
            }
            journal.restored(change);
            said.accept("restored " + change + (change.previous() == null ? " (removed)" : " to " + change.previous()));
        }
        if (!left.isEmpty()) {
            throw new RestoreIncompleteException("could not restore " + left.size()
                    + (left.size() == 1 ? " config" : " configs") + " (" + String.join(", ",
                    left.stream().map(ConfigChange::toString).toList()) + "): " + String.join("; ",
                    unanswered.values()) + ". Every other config is restored; the journal " + journal.file()
                    + " keeps these: `" + again + "` restores them once " + (unanswered.size() == 1 ? "it answers"
                    : "they answer") + " (or `sluice reassign check --fix`)");
        }
    }

    /** Sets the value before the change again, or deletes the key when it was not set. */
    public static void restore(ConfigStore configs, ConfigChange change) {
        configs.set(change.resource(), change.key(), change.previous());
    }
}
