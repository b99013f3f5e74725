package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import java.util.List;
import org.apache.kafka.common.config.ConfigResource;
import java.util.function.Consumer;

/**
 * Sets temporary configs and takes them back, each change journaled before it is made: the value before is read
 * from the cluster the first time only, so a resumed run (which sets the same configs again) still restores what
 * was there before the first run, not its own throttle.
 *
 * <p>Threading: one run's thread.
 */
public final class ConfigLedger {

    private final DynamicConfigs configs;
    private final Journal journal;

    public ConfigLedger(DynamicConfigs configs, Journal journal) {
        this.configs = configs;
        this.journal = journal;
    }

    public void apply(List<TemporaryConfig> temporary) {
        List<String> journaled = journal.pending().stream().map(ConfigChange::id).toList();
        for (TemporaryConfig config : temporary) {
            if (!journaled.contains(config.id())) {
                ConfigChange change = new ConfigChange(config.type(), config.name(), config.key(), config.value(),
                        configs.dynamicValue(new ConfigResource(config.type(),
                                config.name()), config.key()).orElse(null));
                journal.changing(change);
            }
            configs.set(new ConfigResource(config.type(), config.name()), config.key(),
                    config.value());
        }
    }

    /** Puts back every config the journal says was changed and not restored yet; {@code said} hears each. */
    public void restoreAll(Consumer<String> said) {
        for (ConfigChange change : journal.pending()) {
            restore(configs, change);
            journal.restored(change);
            said.accept("restored " + change + (change.previous() == null ? " (removed)" : " to " + change.previous()));
        }
    }

    /** Sets the value before the change again, or deletes the key when it was not set. */
    public static void restore(DynamicConfigs configs, ConfigChange change) {
        configs.set(change.resource(), change.key(), change.previous());
    }
}
