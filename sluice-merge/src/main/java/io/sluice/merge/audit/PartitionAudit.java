package io.sluice.merge.audit;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.order.EventTimeException;
import io.sluice.merge.order.MergeKey;
import io.sluice.merge.write.MergeHeaders;
import io.sluice.merge.write.OutputPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Checks one output partition against its inputs: the output holds every committed input record of partition p below
 * the committed positions exactly once (or the late or dead-letter topic holds it), unchanged, and nothing else; the
 * records not flagged late are sorted by merge key, and each flagged one is indeed below the key before it.
 *
 * <p>Each input's records reach the output in offset order (the merge only ever takes an input's next record), so the
 * output is read once, keeping per input only offsets and 64-bit digests, and each input is then read once alongside.
 *
 * <p>At least once: a record may be there more than once (a repeated window after a restart: counted, each copy
 * compared with the input), and beyond the committed position (written, not committed yet: counted); the order check
 * starts again at each {@link MergeHeaders#RESUMED} from the key it names, the committed state's last key.
 *
 * <p>Threading: one thread.
 */
final class PartitionAudit {

    /** An input record as the merge placed it: its offset, its content's digest, where it is. */
    private record Placed(long offset, long digest, String where) {
    }

    /** The digest of a record set aside without its value. */
    private static final long CONTENT_NOT_KEPT = Long.MIN_VALUE;

    private final MergeConfig config;
    private final int partition;
    private final MergeAuditReport.Partition report;
    private final Digest digest = new Digest();
    private final Map<String, Integer> inputIndex = new HashMap<>();
    private final List<List<Placed>> outputByInput = new ArrayList<>();
    private final List<TreeMap<Long, Placed>> asideByInput = new ArrayList<>();

    private final boolean atLeastOnce;

    PartitionAudit(MergeConfig config, int partition, MergeAuditReport.Partition report, boolean atLeastOnce) {
        this.config = config;
        this.atLeastOnce = atLeastOnce;
        this.partition = partition;
        this.report = report;
        for (int i = 0; i < config.inputs().size(); i++) {
            inputIndex.put(config.inputs().get(i).name(), i);
            outputByInput.add(new ArrayList<>());
            asideByInput.add(new TreeMap<>());
        }
    }

    /** Reads the side topic's partition (late or dead letters), keeping what came from this partition of the inputs. */
    void readAside(CommittedRecords target, TopicPartition tp, String kind) throws Exception {
        target.read(tp, target.start(tp), target.end(tp), r -> {
            long[] from = source(r, kind);
            if (from == null || from[1] != partition) {
                return; // another partition's, or reported as a stranger by source()
            }
            // a record the output would refuse is set aside without its value: only its place can be checked
            Header reason = r.headers().lastHeader(MergeHeaders.REASON);
            boolean valueLeft = reason != null && OutputPartition.withoutValue(new String(reason.value(),
                    java.nio.charset.StandardCharsets.UTF_8));
            Placed placed = new Placed(from[2], valueLeft ? CONTENT_NOT_KEPT : digest.of(r),
                    kind + " " + tp + "@" + r.offset());
            Placed earlier = asideByInput.get((int) from[0]).put(from[2], placed);
            if (earlier != null && atLeastOnce && earlier.digest() == placed.digest()) {
                report.repeated();
            } else if (earlier != null) {
                report.problem("duplicate", name(from[0]) + " offset " + from[2] + " is at " + earlier.where()
                        + " and at " + placed.where());
            }
            report.aside(kind);
        });
    }

    /** Reads the output partition: sortedness as it goes, and each record's place for the completeness check. */
    void readOutput(CommittedRecords target, TopicPartition tp) throws Exception {
        MergeKey[] last = {MergeKey.NONE};
        target.read(tp, target.start(tp), target.end(tp), r -> {
            report.output();
            long[] from = source(r, "output");
            if (from == null) {
                return;
            }
            if (from[1] != partition) {
                report.problem("stranger", tp + "@" + r.offset() + " came from partition " + from[1] + " of "
                        + name(from[0]) + ", not " + partition);
                return;
            }
            outputByInput.get((int) from[0]).add(new Placed(from[2], digest.of(r), tp + "@" + r.offset()));
            Header resumed = atLeastOnce ? r.headers().lastHeader(MergeHeaders.RESUMED) : null;
            if (resumed != null) {
                report.resumed();
                last[0] = resumedAfter(resumed, tp, r.offset());
            }
            MergeKey key;
            try {
                key = new MergeKey(config.orderBy().of(r), (int) from[0], from[2]);
            } catch (EventTimeException e) {
                report.problem("no event time", tp + "@" + r.offset() + ": " + e.getMessage());
                return;
            }
            boolean flagged = r.headers().lastHeader(MergeHeaders.LATE) != null;
            if (flagged) {
                report.late();
                if (!key.isBefore(last[0])) {
                    report.problem("wrongly late", tp + "@" + r.offset() + " is flagged late but is not below the "
                            + "record before it");
                }
            } else if (key.isBefore(last[0])) {
                report.problem("out of order", tp + "@" + r.offset() + " (" + name(from[0]) + " offset " + from[2]
                        + ", time " + key.time() + ") is below the record before it (time " + last[0].time()
                        + ") and not flagged late");
            } else {
                last[0] = key;
            }
        });
    }

    /**
     * Reads each input's partition from where it begins now up to the committed position, matching its records with
     * their places; what no input record claims is a duplicate or beyond the committed position.
     */
    void matchInputs(List<CommittedRecords> inputs, long[] positions) throws Exception {
        for (int i = 0; i < inputs.size(); i++) {
            TopicPartition tp = new TopicPartition(config.inputs().get(i).topic(), partition);
            long start = inputs.get(i).start(tp);
            List<Placed> placed = outputByInput.get(i);
            if (atLeastOnce) {
                placed.sort(java.util.Comparator.comparingLong(Placed::offset)); // repeated windows: stable, near-sorted
            }
            TreeMap<Long, Placed> aside = asideByInput.get(i);
            int[] next = {0};
            while (next[0] < placed.size() && placed.get(next[0]).offset() < start) {
                next[0]++; // the input no longer holds it (retention): its place cannot be checked
                report.uncheckable();
            }
            aside.headMap(start).clear();
            String input = config.inputs().get(i).name();
            long position = positions[i];
            inputs.get(i).read(tp, start, position, r -> {
                report.countChecked();
                long d = digest.of(r);
                while (next[0] < placed.size() && placed.get(next[0]).offset() < r.offset()) {
                    leftover(input, placed.get(next[0]++), position); // an offset the input holds no record at
                }
                Placed p = null;
                if (next[0] < placed.size() && placed.get(next[0]).offset() == r.offset()) {
                    p = placed.get(next[0]++);
                    while (atLeastOnce && next[0] < placed.size() && placed.get(next[0]).offset() == r.offset()) {
                        again(input, r.offset(), d, placed.get(next[0]++));
                    }
                    Placed alsoAside = atLeastOnce ? aside.remove(r.offset()) : null;
                    if (alsoAside != null) {
                        again(input, r.offset(), d, alsoAside); // late in one run, in order in its replay
                    }
                } else {
                    p = aside.remove(r.offset());
                }
                if (p == null) {
                    report.problem("missing", input + " partition " + partition + " offset " + r.offset()
                            + " is in neither the output nor the late or dead-letter topic");
                } else if (p.digest() != d && p.digest() != CONTENT_NOT_KEPT) {
                    report.problem("changed", input + " offset " + r.offset() + " differs at " + p.where());
                }
            });
            for (int k = next[0]; k < placed.size(); k++) {
                leftover(input, placed.get(k), positions[i]);
            }
            for (Placed p : aside.values()) {
                leftover(input, p, positions[i]);
            }
        }
    }

    /** At least once: another copy of an input record; counted, and compared like the first. */
    private void again(String input, long offset, long inputDigest, Placed copy) {
        report.repeated();
        if (copy.digest() != inputDigest && copy.digest() != CONTENT_NOT_KEPT) {
            report.problem("changed", input + " offset " + offset + " differs at " + copy.where());
        }
    }

    /** The key a {@link MergeHeaders#RESUMED} names: the order goes on from there. */
    private MergeKey resumedAfter(Header resumed, TopicPartition tp, long offset) {
        String text = new String(resumed.value(), java.nio.charset.StandardCharsets.US_ASCII);
        if (text.equals("none")) {
            return MergeKey.NONE;
        }
        String[] k = text.split("/");
        try {
            return new MergeKey(Long.parseLong(k[0]), Integer.parseInt(k[1]), Long.parseLong(k[2]));
        } catch (RuntimeException e) {
            report.problem("stranger", tp + "@" + offset + " has a malformed " + MergeHeaders.RESUMED + " header '"
                    + text + "'");
            return MergeKey.NONE;
        }
    }

    private void leftover(String input, Placed p, long position) {
        if (p.offset() >= position && atLeastOnce) {
            report.uncommitted(); // written, its commit not made: the next owner writes it again
        } else if (p.offset() >= position) {
            report.problem("beyond position", p.where() + " holds " + input + " offset " + p.offset()
                    + ", at or past the committed position " + position);
        } else {
            report.problem("duplicate", p.where() + " holds " + input + " offset " + p.offset()
                    + " again (or a record the input does not hold committed)");
        }
    }

    /** The record's input index, partition and offset from its provenance header; null (reported) if none. */
    private long[] source(ConsumerRecord<byte[], byte[]> r, String kind) {
        Header h = r.headers().lastHeader(MergeHeaders.SOURCE);
        String[] parts = h == null ? null : MergeHeaders.source(h.value());
        Integer input = parts == null ? null : inputIndex.get(parts[0]);
        if (input == null) {
            report.problem("stranger", kind + " " + r.topic() + "-" + r.partition() + "@" + r.offset()
                    + (parts == null ? " has no " + MergeHeaders.SOURCE + " header: not written by this merge"
                            : " came from '" + parts[0] + "', not one of this merge's inputs"));
            return null;
        }
        try {
            return new long[] {input, Integer.parseInt(parts[1]), Long.parseLong(parts[2])};
        } catch (NumberFormatException e) {
            report.problem("stranger", kind + " " + r.topic() + "@" + r.offset() + " has a malformed "
                    + MergeHeaders.SOURCE + " header");
            return null;
        }
    }

    private String name(long input) {
        return config.inputs().get((int) input).name();
    }
}
