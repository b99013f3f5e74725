package io.sluice.cli.lag;

import io.sluice.cli.console.Units;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * What the lag report says, computed from snapshots: per partition and in total the lag in records and bytes, how
 * fast the group processes and the producers produce (from the first and last snapshot), when the lag is caught up,
 * and when retention deletes the oldest unconsumed record. Time to catch up uses the net rate (processed minus
 * produced). Retention left is the earliest moment: the time-based one assumes the oldest unconsumed record's own
 * timestamp (the broker deletes whole segments, so a little later), the size-based one assumes the log grows at the
 * produce rate.
 *
 * <p>A partition whose offsets could not be read (no leader, a leader that does not answer) is in {@link #unknown}
 * with why, left out of the rows and totals, and warned of: the figures are those of the partitions that answered.
 *
 * <p>Threading: immutable.
 */
public record LagView(Instant at, Duration target, List<Row> rows, Map<TopicPartition, String> unknown, Totals totals,
        List<String> warnings, List<String> notes) {

    /**
     * One partition.
     *
     * @param lagBytes      estimated, NaN when unknown
     * @param processedRate records/s by committed offsets, NaN when unknown
     * @param producedRate  records/s by end offsets, NaN when unknown
     * @param oldestAge     the age of the oldest unconsumed record, or null
     */
    public record Row(TopicPartition partition, long end, long committed, long lag, double lagBytes, Duration oldestAge,
            double processedRate, double producedRate, Estimate catchUp, Estimate retentionLeft, long lost) {
    }

    /**
     * All partitions.
     *
     * @param rateSource    where the processing rate comes from
     * @param requiredRate  the processing rate that catches up within the target
     * @param soonestDeletion the partition whose oldest unconsumed record retention deletes first, or null
     */
    public record Totals(long lag, double lagBytes, Duration oldestAge, double processedRate, double producedRate,
            String rateSource, Estimate catchUp, double requiredRate, Estimate retentionLeft,
            TopicPartition soonestDeletion) {

        /**
         * Whether the group keeps up: it processes, and its lag is at most {@link #KEEPING_UP} of its processing. A
         * group that commits every second or so, on a topic written all the time, has a lag that comes and goes with
         * its commits: three runs of {@code lag} a few seconds apart on a mirror that kept up (its own line said so)
         * read "Yes", then "No: the lag does not shrink (1.94K rec/s processed against 1.98K rec/s produced)" with a
         * warning that retention would delete records first.
         */
        public boolean keepingUp() {
            return processedRate > 0 && lag <= processedRate * KEEPING_UP.toSeconds();
        }
    }

    /** A lag of at most this much of the processing rate is kept up with, as the run's own line says it is. */
    static final Duration KEEPING_UP = Duration.ofSeconds(10);

    static LagView of(List<LagSnapshot> history, Duration target, List<String> notes) {
        LagSnapshot last = history.get(history.size() - 1);
        LagSnapshot first = history.get(0);
        double seconds = Duration.between(first.at(), last.at()).toMillis() / 1000.0;
        boolean rates = history.size() >= 2 && seconds > 0;
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<TopicPartition, LagSnapshot.Reading> e : sorted(last.partitions())) {
            LagSnapshot.Reading now = e.getValue();
            LagSnapshot.Reading then = first.partitions().get(e.getKey());
            double processed = Double.NaN;
            double produced = Double.NaN;
            if (rates && then != null) {
                produced = Math.max(0, now.end() - then.end()) / seconds;
                processed = then.committed() >= 0 && now.committed() >= then.committed()
                        ? (now.committed() - then.committed()) / seconds
                        : then.committed() < 0 && now.committed() < 0 ? 0 : Double.NaN;
            }
            long lag = now.lag();
            double lagBytes = now.recordBytes() >= 0 ? lag * now.recordBytes() : lag == 0 ? 0 : Double.NaN;
            Duration age = now.oldestTimestamp() >= 0 && lag > 0
                    ? Duration.ofMillis(Math.max(0, last.at().toEpochMilli() - now.oldestTimestamp())) : null;
            rows.add(new Row(e.getKey(), now.end(), now.committed(), lag, lagBytes, age, processed, produced,
                    catchUp(lag, processed, produced), retentionLeft(now, lagBytes, produced, age,
                            last.retention().get(e.getKey().topic())), now.lost()));
        }
        Map<TopicPartition, String> unknown = new java.util.TreeMap<>(ORDER);
        unknown.putAll(last.unknown());
        return new LagView(last.at(), target, List.copyOf(rows), java.util.Collections.unmodifiableMap(unknown),
                totals(rows, first, last, seconds, rates, target), List.of(), List.copyOf(notes)).withWarnings();
    }

    private static final java.util.Comparator<TopicPartition> ORDER = java.util.Comparator
            .comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private static List<Map.Entry<TopicPartition, LagSnapshot.Reading>> sorted(Map<TopicPartition, LagSnapshot.Reading> m) {
        List<Map.Entry<TopicPartition, LagSnapshot.Reading>> entries = new ArrayList<>(m.entrySet());
        entries.sort(Map.Entry.comparingByKey(ORDER));
        return entries;
    }

    private static Estimate catchUp(long lag, double processed, double produced) {
        if (lag == 0) {
            return Estimate.seconds(0);
        }
        if (Double.isNaN(processed)) {
            return Estimate.UNKNOWN;
        }
        double net = processed - (Double.isNaN(produced) ? 0 : produced);
        return net > 0 ? Estimate.seconds(lag / net) : Estimate.NEVER;
    }

    private static Estimate retentionLeft(LagSnapshot.Reading now, double lagBytes, double produced, Duration age,
            LagSnapshot.Retention retention) {
        if (now.lag() == 0) {
            return Estimate.NONE;
        }
        if (retention == null) {
            return Estimate.UNKNOWN;
        }
        if (!retention.deletes() || retention.ms() < 0 && retention.bytes() < 0) {
            return Estimate.NEVER;
        }
        Estimate left = Estimate.NEVER;
        if (retention.ms() >= 0) {
            left = age == null ? Estimate.UNKNOWN : Estimate.seconds((retention.ms() - age.toMillis()) / 1000.0);
        }
        if (retention.bytes() >= 0) {
            Estimate bySize;
            if (Double.isNaN(lagBytes)) {
                bySize = Estimate.UNKNOWN;
            } else if (lagBytes >= retention.bytes()) {
                bySize = Estimate.seconds(0);
            } else if (!Double.isNaN(produced) && produced > 0 && now.recordBytes() > 0) {
                bySize = Estimate.seconds((retention.bytes() - lagBytes) / (produced * now.recordBytes()));
            } else {
                bySize = Double.isNaN(produced) ? Estimate.UNKNOWN : Estimate.NEVER;
            }
            left = Estimate.sooner(left, bySize);
        }
        return left;
    }

    private static Totals totals(List<Row> rows, LagSnapshot first, LagSnapshot last, double seconds, boolean rates,
            Duration target) {
        long lag = 0;
        double bytes = 0;
        Duration oldest = null;
        double processed = rates ? 0 : Double.NaN;
        double produced = rates ? 0 : Double.NaN;
        Estimate retention = Estimate.NONE;
        TopicPartition soonest = null;
        for (Row r : rows) {
            lag += r.lag();
            bytes += r.lagBytes();
            if (r.oldestAge() != null && (oldest == null || r.oldestAge().compareTo(oldest) > 0)) {
                oldest = r.oldestAge();
            }
            if (!Double.isNaN(r.processedRate())) {
                processed += r.processedRate();
            }
            if (!Double.isNaN(r.producedRate())) {
                produced += r.producedRate();
            }
            Estimate sooner = Estimate.sooner(retention, r.retentionLeft());
            if (sooner != retention && r.retentionLeft().known()) {
                soonest = r.partition();
            }
            retention = sooner;
        }
        String source = rates ? "committed offsets over " + Units.duration(Duration.ofMillis((long) (seconds * 1000)))
                : "one sample: no rate yet";
        if (rates && first.completedRecords().isPresent() && last.completedRecords().isPresent()) {
            processed = Math.max(0, last.completedRecords().getAsDouble() - first.completedRecords().getAsDouble())
                    / seconds;
            source = "the instances' metrics over " + Units.duration(Duration.ofMillis((long) (seconds * 1000)));
        }
        double required = lag / (double) Math.max(1, target.toSeconds()) + (Double.isNaN(produced) ? 0 : produced);
        return new Totals(lag, bytes, oldest, processed, produced, source, catchUp(lag, processed, produced), required,
                retention, soonest);
    }

    /** The same view with its warnings: records lost, retention before catch-up, partitions not moving. */
    private LagView withWarnings() {
        List<String> w = new ArrayList<>();
        unknown.forEach((tp, why) -> w.add(tp + ": its offsets are unknown, " + why + "; it is left out of the "
                + "figures"));
        boolean anyMoved = rows.stream().anyMatch(r -> r.processedRate() > 0);
        for (Row r : rows) {
            if (r.lost() > 0) {
                w.add(r.partition() + ": offsets " + Units.count(r.committed()) + " to "
                        + Units.count(r.committed() + r.lost() - 1) + " (" + Units.count(r.lost()) + " records) were "
                        + "deleted before the group processed them (retention, compaction or delete-records); a mirror "
                        + "stops that partition there, and its lag stands still until its progress is moved past "
                        + "(docs/mirror.md, Loud gaps)");
            }
            if (r.committed() > r.end()) {
                w.add(r.partition() + ": the committed offset " + Units.count(r.committed()) + " is past the "
                        + "partition's end (" + Units.count(r.end()) + "): the topic was deleted and created again, or "
                        + "its records deleted, since the group committed; its lag is not known");
            }
            if (r.lag() > 0 && r.processedRate() == 0 && anyMoved) {
                w.add(r.partition() + ": " + Units.count(r.lag()) + " records of lag and no progress while others "
                        + "moved");
            }
        }
        Estimate deletion = totals.retentionLeft();
        Estimate catchUp = totals.catchUp();
        if (deletion.known() && !totals.keepingUp()
                && (!catchUp.known() || catchUp.value().compareTo(deletion.value()) > 0)) {
            w.add("retention deletes unconsumed records of " + totals.soonestDeletion() + " "
                    + (deletion.value().isZero() ? "now" : "in about " + deletion) + ", before the lag is caught up"
                    + (catchUp.known() ? " (in about " + catchUp + ")" : ""));
        }
        return new LagView(at, target, rows, unknown, totals, List.copyOf(w), notes);
    }

    /** One line: can the lag be caught up within the target? */
    public String verdict() {
        Totals t = totals;
        String known = rows.size() + (rows.size() == 1 ? " partition" : " partitions") + " whose offsets are known; "
                + unknown.size() + (unknown.size() == 1 ? " is" : " are") + " not";
        String of = unknown.isEmpty() ? "" : " (in the " + known + ")";
        if (rows.isEmpty() && !unknown.isEmpty()) {
            return "Unknown: the offsets of none of the " + unknown.size() + " partitions could be read (see the "
                    + "warnings).";
        }
        long past = rows.stream().filter(r -> r.committed() > r.end()).count();
        if (t.lag() == 0 && past > 0) {
            return "Unknown: " + past + (past == 1 ? " partition has its" : " partitions have their") + " committed "
                    + "offset past the end (see the warnings); the others have no lag.";
        }
        if (t.lag() == 0) {
            return unknown.isEmpty()
                    ? "No lag: the group has processed everything up to the end of all " + rows.size() + " partitions."
                    : "No lag in the " + known + ".";
        }
        String question = "Can the lag of " + Units.count(t.lag()) + " records" + detail(t) + of
                + " be caught up within " + Units.duration(target) + "? ";
        String needs = Units.duration(target) + " needs " + Units.compact(t.requiredRate()) + " rec/s.";
        String rates = Units.compact(t.processedRate()) + " rec/s processed against " + Units.compact(t.producedRate())
                + " rec/s produced";
        if (t.keepingUp()) {
            return question + "Yes: it keeps up; the lag is under " + Units.duration(KEEPING_UP) + " of processing at "
                    + rates + ", and comes and goes with the group's commits.";
        }
        return switch (t.catchUp().kind()) {
            case KNOWN -> t.catchUp().value().compareTo(target) <= 0
                    ? question + "Yes: in about " + t.catchUp() + ", at " + rates + "."
                    : question + "No: it takes about " + t.catchUp() + " at " + rates + "; " + needs;
            // the rate is the committed offsets': an exactly-once archive commits when its files roll, minutes
            // apart, so "nothing was processed" called a busy archiver idle (a new user's run)
            case NEVER -> t.processedRate() == 0
                    ? question + "Not at this rate: the group committed nothing between the samples (it is stopped, or "
                            + "commits less often than --interval, as an archive does when its files roll: a longer "
                            + "--interval, or --metrics-url of a running instance, measures its rate); " + needs
                    : question + "No: the lag does not shrink (" + rates + "); " + needs;
            default -> question + "Unknown yet: measuring the processing rate takes two samples; " + needs;
        };
    }

    private static String detail(Totals t) {
        List<String> parts = new ArrayList<>();
        if (!Double.isNaN(t.lagBytes())) {
            parts.add(Units.bytes(t.lagBytes()));
        }
        if (t.oldestAge() != null) {
            parts.add("the oldest " + Units.duration(t.oldestAge()) + " old");
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }
}
