package io.sluice.bench;

import java.util.Arrays;
import java.util.Locale;

/** The systems of the mirror benchmark: which of them a duplicate fails, and where each writes its copies. */
enum MirrorSystem {
    PLAIN_COPIER(false),
    SLUICE(true),
    SLUICE_ALO(false),
    /** {@code sluice mirror mirror.yaml}, exactly once: the command as users run it ({@link CommandMirror}). */
    SLUICE_COMMAND(true),
    /** The command with {@code delivery: at-least-once}. */
    SLUICE_COMMAND_ALO(false),
    MM2_ALO(false),
    /** MirrorMaker 2 promises exactly once too; its duplicates, if any, are reported as a finding about a peer. */
    MM2_EOS(false);

    /** MirrorMaker 2's alias of the source cluster, which its default replication policy puts before topic names. */
    static final String MM2_SOURCE_ALIAS = "src";

    private final boolean duplicatesFail;

    /** @param duplicatesFail Sluice's exactly once: a record copied twice is a bug, and fails the run */
    MirrorSystem(boolean duplicatesFail) {
        this.duplicatesFail = duplicatesFail;
    }

    static MirrorSystem named(String name) {
        return Arrays.stream(values()).filter(s -> s.id().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no mirror system " + name));
    }

    /** The name on the command line and in the report. */
    String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean duplicatesFail() {
        return duplicatesFail;
    }

    /** Whether the system writes the source's consumer group offsets to the target (the plain copier does not). */
    boolean translatesGroups() {
        return this != PLAIN_COPIER;
    }

    /** Whether it copies until stopped, with no line that says it reached the end (MirrorMaker 2, the command). */
    boolean runsUntilStopped() {
        return isMirrorMaker() || isCommand();
    }

    /** Whether it is the {@code sluice mirror} command ({@link CommandMirror}). */
    boolean isCommand() {
        return this == SLUICE_COMMAND || this == SLUICE_COMMAND_ALO;
    }

    boolean isMirrorMaker() {
        return this == MM2_ALO || this == MM2_EOS;
    }

    /**
     * The topic this system's copies go to in run {@code run}: MirrorMaker 2 names it after the source's alias (it gets
     * fresh clusters every run); the others write under a prefix of their own per run, so that runs sharing a target
     * cluster never meet in one topic.
     */
    String targetTopic(String sourceTopic, String run) {
        return isMirrorMaker() ? MM2_SOURCE_ALIAS + "." + sourceTopic : targetPrefix(run) + sourceTopic;
    }

    /** The prefix of the target topic in run {@code run}, for the systems that are told it. */
    String targetPrefix(String run) {
        return id() + "-" + run + ".";
    }
}
