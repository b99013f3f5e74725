package io.sluice.merge.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.merge.Merge;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeProgress;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import io.sluice.merge.MergeInputs;
import io.sluice.merge.MergeTest;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A merge in a child JVM halts at each named step of its commit in turn (at the first commit, when nothing is
 * committed yet, and at a later one), or is killed at a seeded moment mid-merge (after a seeded number of records were
 * committed, and before the end: the kill, not the merge, ended it); a restart then merges to the end.
 * Whatever the step, the output is exactly what an uninterrupted merge writes: every input record once, in merge
 * order — the restart's claim aborted what the halted merge had sent, and its committed state (positions and the
 * last key) let it go on as if nothing had happened.
 */
@Tag("slow")
@Execution(ExecutionMode.CONCURRENT) // two cases at a time (junit-platform.properties): each has its own topics
class MergeCrashTest {

    static Stream<Arguments> crashPoints() {
        return Stream.of("merge.after-send", CrashPoints.TRANSACTION_BEFORE_COMMIT, "merge.after-commit")
                .flatMap(point -> Stream.of(1, 5).map(hit -> Arguments.of(point, hit)));
    }

    @ParameterizedTest(name = "{0}:{1}")
    @MethodSource("crashPoints")
    void aHaltAtAnyStepOfTheCommitLeavesTheUninterruptedOutputAfterARestart(String point, int hit) throws Exception {
        Run run = new Run();
        ChildProcess child = run.start("-Dsluice.crash.at=" + point + ":" + hit);
        OptionalInt status = child.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            child.kill();
        }
        assertEquals(OptionalInt.of(CrashPoints.HALT_STATUS), status, () -> "halted at " + point + "\n"
                + child.tail());
        run.finishAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261125L, 7L})
    void aKillAtASeededRandomMomentLeavesTheUninterruptedOutputAfterARestart(long seed) throws Exception {
        Run run = new Run();
        ChildProcess child = run.start();
        run.killMidMerge(child, seed);
        run.finishAndCheck();
    }

    /**
     * A state read at a claim is committed again at the first turn: a partition idle for days under runs shorter than
     * an hour (a bounded merge from cron) never lived to its hourly commit, and its state expired alone (a review). And
     * a partition whose state is gone while its output holds records is refused in words, exactly once: its inputs were
     * merged into it a second time.
     */
    @Test
    void aClaimedStateIsCommittedAgainAtOnceAndAPartitionWhoseStateIsGoneIsRefused() throws Exception {
        Run run = new Run();
        run.finishAndCheck();
        ChildProcess again = run.start("-Dsluice.crash.at=merge.after-commit:1");
        OptionalInt status = again.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            again.kill();
        }
        assertEquals(OptionalInt.of(CrashPoints.HALT_STATUS), status, () -> "nothing new to merge, and a commit all "
                + "the same: the claimed state committed again\n" + again.tail());

        MergeConfig config = MergeChild.config(run.args()).build();
        TopicPartition gone = new TopicPartition(run.output, 1);
        run.west.admin().deleteConsumerGroupOffsets(config.progressGroup(), Set.of(gone)).all()
                .get(30, TimeUnit.SECONDS); // as offsets.retention.minutes would, the other partition's left
        try (Merge refused = Merge.start(config, MergeChild.member(MergeChild.INSTANCE))) {
            String why = assertThrows(Exception.class, () -> refused.awaitEnd(Duration.ofSeconds(60))).getMessage();
            assertTrue(why.contains("output partitions [" + gone + "] hold records, yet merge '" + config.name()
                    + "' has no committed state for them"), why);
        }
        MergeInputs.assertMerged(run.inputs.expected(), MergeInputs.sources(run.west, run.output)); // nothing twice
    }

    /** Two inputs with skewed event times on two clusters, merged into a topic of the first. */
    static final class Run {
        /** Records in the inputs: two partitions of two inputs, 1,500 each. */
        static final long RECORDS = 2 * 2 * 1_500;
        /** What kill -9 makes a JVM's exit status (128 + SIGKILL). */
        static final int KILLED = 128 + 9;

        final KafkaCluster west = SharedKafka.cluster();
        final KafkaCluster east = SharedKafka.second();
        final MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("mcrash-west"), Names.unique("mcrash-east")));
        final String output = Names.unique("mcrash-out");
        final String name = Names.unique("mcrash");
        final MergeDelivery delivery;

        Run() {
            this(MergeDelivery.EXACTLY_ONCE);
        }

        Run(MergeDelivery delivery) {
            this.delivery = delivery;
            west.createTopic(inputs.topics().get(0), 2);
            east.createTopic(inputs.topics().get(1), 2);
            Random random = new Random(11);
            long base = System.currentTimeMillis() - 3_600_000;
            for (int p = 0; p < 2; p++) {
                inputs.produce(0, p, MergeTest.times(random, base, 1_500, p == 0));
                inputs.produce(1, p, MergeTest.times(random, base - 600_000, 1_500, false));
            }
        }

        String[] args() {
            return new String[] {west.bootstrapServers(), inputs.topics().get(0), east.bootstrapServers(),
                inputs.topics().get(1), west.bootstrapServers(), output, name, MergeChild.INSTANCE, delivery.name()};
        }

        /**
         * kill -9 of the child at a seeded moment mid-merge: once the commits it made cover a seeded number of
         * records (at least one commit seen, at most a third of the records). The kill must be what ended it (its exit
         * status is SIGKILL's, not a finished merge's), and what it committed must fall short of the inputs' ends.
         */
        void killMidMerge(ChildProcess child, long seed) throws Exception {
            long target = 1 + new Random(seed).nextInt((int) (RECORDS / 3));
            MergeConfig config = MergeChild.config(args()).build();
            long committed;
            try (MergeProgress progress = MergeProgress.of(config, Duration.ofSeconds(5))) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while ((committed = committed(progress)) < target) {
                    assertTrue(child.isAlive(), () -> "the child ended before the kill\n" + child.tail());
                    assertTrue(System.nanoTime() < deadline, () -> "no commit of " + target + " records within "
                            + "60 s\n" + child.tail());
                    TimeUnit.MILLISECONDS.sleep(5);
                }
                int status = child.kill();
                long after = committed(progress);
                System.out.println("[merge-crash-test] seed " + seed + " (" + delivery + "): kill -9 once " + committed
                        + " of " + RECORDS + " records were committed (target " + target + "); " + after
                        + " committed when it died");
                assertEquals(KILLED, status, () -> "the kill ended the child, not the end of its merge\n"
                        + child.tail());
                assertTrue(after < RECORDS, "killed mid-merge: " + after + " of " + RECORDS + " committed");
            }
        }

        /** Input records below the committed positions, over every output partition and input. */
        private static long committed(MergeProgress progress) throws Exception {
            long sum = 0;
            for (MergeProgress.InputLag row : progress.read()) {
                sum += row.committed() < 0 ? 0 : row.committed() - row.start();
            }
            return sum;
        }

        ChildProcess start(String... jvmOptions) {
            return start(List.of(jvmOptions), MergeChild.INSTANCE);
        }

        ChildProcess start(List<String> jvmOptions, String instance) {
            String[] args = args();
            args[7] = instance;
            // as the test brokers start: a child that lives seconds should not spend them compiling
            List<String> options = new ArrayList<>(KafkaCluster.TEST_JVM_OPTIONS);
            options.addAll(jvmOptions);
            ChildProcess child = ChildJvm.builder("merge-" + name)
                    .classpathOfThisJvm()
                    .jvmOptions(options)
                    .mainClass(MergeChild.class.getName())
                    .args(args)
                    .workDir(TestDirs.newDir("merge-child-" + name))
                    .build()
                    .start();
            child.awaitLogLine(line -> line.startsWith(MergeChild.READY), Duration.ofSeconds(60));
            return child;
        }

        void finishAndCheck() throws Exception {
            finish(MergeChild.INSTANCE);
            check();
        }

        void finish(String instance) throws Exception {
            try (Merge restart = Merge.start(MergeChild.config(args()).build(), MergeChild.member(instance))) {
                assertTrue(restart.awaitEnd(Duration.ofSeconds(60)), "the restart merged to the end");
            }
        }

        void check() throws Exception {
            MergeConfig config = MergeChild.config(args()).build();
            MergeInputs.assertMerged(inputs.expected(), MergeInputs.sources(west, output));
            MergeAuditReport audit = MergeAudit.run(config);
            assertTrue(audit.ok(), audit.firstProblem());
        }
    }
}
