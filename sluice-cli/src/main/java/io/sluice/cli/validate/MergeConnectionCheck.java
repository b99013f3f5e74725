package io.sluice.cli.validate;

import io.sluice.cli.console.Console;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.merge.state.CommittedStates;
import io.sluice.merge.topics.MergeTopics;
import java.time.Duration;
import java.util.List;

/**
 * {@code validate --connect} for a merge file: asks every input cluster and the target who they are, with the file's
 * own settings and credentials, then checks what starting the merge would refuse (inputs' topics missing or with
 * different partition counts, an output topic with another count or LogAppendTime, committed states of the other
 * delivery or of another configuration), creating nothing. One line per check.
 *
 * <p>Threading: one thread.
 */
final class MergeConnectionCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final Console console;
    private final MirrorConnectionCheck clusters;

    MergeConnectionCheck(Console console) {
        this.console = console;
        this.clusters = new MirrorConnectionCheck(console);
    }

    /** True when every check passed. */
    boolean check(MergeConfig config) {
        boolean answer = true;
        for (MergeInput input : config.inputs()) {
            answer &= clusters.cluster("input " + input.name(), input.clientProperties(), null).isPresent();
        }
        answer &= clusters.cluster("target", config.targetProperties(), null).isPresent();
        if (!answer) {
            return false; // the topics cannot be asked about
        }
        boolean topics;
        try {
            List<String> problems = MergeTopics.problems(config);
            problems.forEach(p -> console.result("topics FAILED: " + p));
            if (problems.isEmpty()) {
                console.result("topics: " + String.join(", ", config.inputs().stream().map(i -> i.name() + " "
                        + i.topic()).toList()) + " can be merged into " + config.outputTopic());
            }
            topics = problems.isEmpty();
        } catch (Exception e) {
            console.result("topics FAILED: " + ConnectionCheck.reason(e));
            topics = false;
        }
        return topics & states(config);
    }

    /** What the committed states would make a start refuse: another delivery's, or another configuration's. */
    private boolean states(MergeConfig config) {
        try {
            List<String> problems = CommittedStates.problems(config, TIMEOUT);
            problems.forEach(p -> console.result("committed state FAILED: " + p));
            if (problems.isEmpty()) {
                console.result("committed state: what the target holds for merge '" + config.name() + "' fits this "
                        + "file (or there is none yet)");
            }
            return problems.isEmpty();
        } catch (Exception e) {
            console.result("committed state FAILED: " + ConnectionCheck.reason(e));
            return false;
        }
    }
}
