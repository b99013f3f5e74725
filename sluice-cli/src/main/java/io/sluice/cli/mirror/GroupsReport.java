package io.sluice.cli.mirror;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.groups.GroupTranslationReport;
import org.apache.kafka.common.KafkaException;

/**
 * {@code sluice mirror FILE --groups}: how far each translated group would be from where it stopped, were it to fail
 * over to the target now.
 *
 * <p>Stateless.
 */
final class GroupsReport {

    private GroupsReport() {
    }

    static int show(MirrorConfig config, Console console) throws RunFailure {
        if (config.groups().isEmpty()) {
            console.result("mirror " + config.name() + " translates no group: set mirror.groups to a pattern of the "
                    + "source groups whose offsets should follow to the target");
            return ExitStatus.OK;
        }
        try {
            console.result(GroupTranslationReport.of(config).text());
            return ExitStatus.OK;
        } catch (KafkaException | IllegalStateException e) {
            throw new RunFailure("cannot read the groups of mirror " + config.name() + ": " + e.getMessage(), e);
        }
    }
}
