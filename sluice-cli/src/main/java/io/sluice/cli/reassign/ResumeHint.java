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
        return "The run stopped midway: the throttles and guards it set stay until " + whatNext(journal,
                " once the cluster answers");
    }

    /** After Ctrl-C or SIGTERM: the moves under way go on in the cluster without the command. */
    static String afterSignal(Path journal) {
        return "stopped by a signal: the moves under way go on in the cluster, and the throttles and guards this run "
                + "set stay until " + whatNext(journal, "");
    }

    private static String whatNext(Path journal, String when) {
        return "`sluice reassign resume " + journal + "` finishes the run" + when + " (or `sluice reassign cancel "
                + journal + "` undoes it); `sluice reassign check` shows the moves under way and what is set for them";
    }
}
