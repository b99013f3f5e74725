package io.sluice.audit;

import java.time.Instant;
import java.util.List;
import java.util.SortedMap;

/**
 * The outcome of an audit: per partition what Kafka expects and what the files hold, the files that could not be read
 * or are not Sluice's, and an exit status. {@link #text()} is the report for people (summary line first),
 * {@link #json()} the same for programs.
 *
 * <p>Lists hold at most the configured list limit of entries; the counts beside them are always whole.
 *
 * <p>Threading: immutable.
 */
public record AuditReport(
        String topic,
        String topicId,
        String storage,
        Instant startedAt,
        long tookMillis,
        String deadLetterTopic,
        String groupId,
        List<PartitionReport> partitions,
        long visibleFiles,
        long filesRead,
        long rowsRead,
        long unreadableFiles,
        List<UnreadableFile> unreadable,
        long strangeFiles,
        List<StrangeFile> strangers,
        long unnamedFiles,
        List<StrangeFile> unnamed,
        long otherTopicFiles,
        SortedMap<String, Long> otherTopics,
        long manifestCheckedFiles,
        List<String> earlierTopicIds,
        List<String> notes) {

    /**
     * Exit status when every expected offset appears exactly once, every file is readable and every file is the
     * archive's.
     */
    public static final int OK = 0;
    /**
     * Exit status when anything is missing, duplicated or unreadable, a file is a stranger or unnamed, or the result
     * cannot be trusted.
     */
    public static final int PROBLEMS = 1;

    /** A record found in the dead-letter topic instead of the archive, and why it is there. */
    public record DeadLetter(long offset, String errorClass, String error, int attempts, String deadLetterAt) {
    }

    /** A file that a manifest names for missing offsets, and that is not visible. */
    public record MissingFile(String path, long firstOffset, long lastOffset, long records, String manifest) {
    }

    /** {@code offsets} offsets between {@code first} and {@code last}, each held by every one of {@code files}. */
    public record DuplicateRun(long first, long last, long offsets, List<String> files) {
    }

    /** A file in a Sluice format that cannot be read: its offsets count as missing. */
    public record UnreadableFile(String path, String reason) {
    }

    /**
     * A visible file under the archive root that the archive did not put there: a stranger (a name the sink never
     * writes, or rows its name does not promise) or unnamed (a sink name no manifest of its topic names), with what it
     * holds.
     */
    public record StrangeFile(String path, String reason) {
    }

    /** The archiver group's commit for a partition and what its manifest promises. */
    public record GroupCommit(long committedOffset, String manifest, CommitStatus status, String detail,
            List<String> notVisible) {
    }

    /** Files staged for a partition and not visible: committed ones awaiting publication, and orphans. */
    public record Staged(long awaitingPublish, long orphans, List<String> listed) {

        public static final Staged NONE = new Staged(0, 0, List.of());
    }

    /** What the group's committed offset says about the archive. */
    public enum CommitStatus {
        /** The group has no committed offset for the partition. */
        NOTHING_COMMITTED(false),
        /** The commit carries no Sluice metadata: not an archiver's commit. */
        NOT_SLUICE(false),
        /** The commit was made for an earlier topic of the same name (another topic ID); the archiver ignores it. */
        OTHER_TOPIC_ID(false),
        /** The commit names no manifest: at-least-once mode, or nothing was sealed at that checkpoint. */
        NO_MANIFEST(false),
        /** The manifest exists and every file it names is visible. */
        COMPLETE(false),
        /** Some files of the committed manifest are still staged: the archiver stopped before publishing them. */
        AWAITING_PUBLISH(true),
        /** The manifest the commit names does not exist. */
        MANIFEST_MISSING(true),
        /** The manifest the commit names cannot be parsed. */
        MANIFEST_UNREADABLE(true),
        /** Some files of the committed manifest are neither visible nor staged. */
        FILES_GONE(true),
        /**
         * The committed offset is below the partition's log start: Kafka deleted records the archiver had not
         * committed past, which no audit can ask Kafka about any more.
         */
        BELOW_LOG_START(true);

        private final boolean problem;

        CommitStatus(boolean problem) {
            this.problem = problem;
        }

        public boolean problem() {
            return problem;
        }
    }

    /**
     * 0 only when every expected offset appears exactly once, no file is unreadable, a stranger or unnamed, no
     * committed manifest is unsound, and no earlier topic of the same name left files that rows cannot tell apart.
     */
    public int exitStatus() {
        return clean() ? OK : PROBLEMS;
    }

    public boolean clean() {
        return unreadableFiles == 0 && strangeFiles == 0 && unnamedFiles == 0 && earlierTopicIds.isEmpty()
                && partitions.stream().allMatch(PartitionReport::clean);
    }

    public long expected() {
        return partitions.stream().mapToLong(PartitionReport::expected).sum();
    }

    public long exactlyOnce() {
        return partitions.stream().mapToLong(PartitionReport::exactlyOnce).sum();
    }

    public long missing() {
        return partitions.stream().mapToLong(p -> p.missing().offsets()).sum();
    }

    public long duplicated() {
        return partitions.stream().mapToLong(p -> p.duplicated().offsets()).sum();
    }

    /** The first line of the report. */
    public String summary() {
        return ReportText.summary(this);
    }

    /** The report for people: the summary line, then each partition, the files, and what to do. */
    public String text() {
        return ReportText.render(this);
    }

    /** The report as one JSON object; see {@code docs/audit.md}. */
    public String json() {
        return ReportJson.render(this);
    }
}
