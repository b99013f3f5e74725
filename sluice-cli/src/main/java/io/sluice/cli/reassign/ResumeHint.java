package io.sluice.cli.reassign;

import java.nio.file.Path;

/**
 * What a person does after a run stopped midway (the cluster stopped answering, a broker died): the run's throttles
 * and guards stay set and its moves may go on, and only its journal knows them. A broker killed during a move ended
 * the command after a minute with the admin client's words and nothing about the journal.
 *
 * <p>Stateless.
 */
final class ResumeHint {

    private ResumeHint() {
    }

    static String of(Path journal) {
        return "The run stopped midway: the throttles and guards it set stay until `sluice reassign resume " + journal
                + "` finishes it once the cluster answers (or `sluice reassign cancel " + journal + "` undoes it); "
                + "`sluice reassign check` lists what is set meanwhile";
    }
}
