package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The output cluster goes down while merged records wait to be written: the merge says so once the target has not
 * answered for the grace period ({@code Merge#targetUnreachable}, the progress line's words), no longer once it
 * answers again, and the audit finds every record once. The owners group lives in the target too, so the outage also
 * costs the instance its claims for a while: it takes them back.
 */
@Tag("slow")
class TargetOutageTest {

    @Test
    void aTargetThatDoesNotAnswerIsSaidWhileMergedRecordsWaitAndTheMergeGoesOnWhenItAnswers() throws Exception {
        long t = System.currentTimeMillis() - 600_000;
        try (KafkaCluster target = KafkaCluster.builder().name("merge-silent-target").start()) {
            MergeInputs inputs = new MergeInputs(List.of("west", "east"),
                    List.of(SharedKafka.cluster(), SharedKafka.second()),
                    List.of(Names.unique("silent-west"), Names.unique("silent-east")));
            SharedKafka.cluster().createTopic(inputs.topics().get(0), 1);
            SharedKafka.second().createTopic(inputs.topics().get(1), 1);
            inputs.produce(0, 0, times(t, 10));
            inputs.produce(1, 0, times(t + 1, 10));
            // the producers' request timeout of 3 s is the grace after which the silence is said (15 s unless shorter)
            Map<String, Object> targetProperties = new HashMap<>(target.clientProperties(Listener.PLAINTEXT));
            targetProperties.put("request.timeout.ms", 3000);
            MergeConfig config = inputs.merge(Names.unique("silent-target"), target, Names.unique("silent-out"))
                    .targetProperties(targetProperties).untilEnd(false).maxWait(Duration.ofSeconds(3)).build();
            try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
                await("both inputs merged", Duration.ofSeconds(60), () -> merge.counts().merged() == 20);
                assertTrue(merge.targetUnreachable().isEmpty());

                target.node(1).stop();
                inputs.produce(0, 0, times(t + 1_000, 10));
                inputs.produce(1, 0, times(t + 1_001, 10));
                await("the target's silence said", Duration.ofSeconds(45),
                        () -> merge.targetUnreachable().isPresent());
                assertTrue(merge.inputsUnanswered().isEmpty(), "the inputs answer: " + merge.inputsUnanswered());

                target.node(1).start();
                await("the target answers again", Duration.ofSeconds(60),
                        () -> merge.targetUnreachable().isEmpty());
                await("every record merged and committed", Duration.ofSeconds(90), () -> audit(config).ok()
                        && audit(config).partitions().get(0).checked() == 40);
                assertTrue(!merge.failure().isDone(), "the merge rode the outage out");
            }
        }
    }

    private static MergeAuditReport audit(MergeConfig config) {
        try {
            return MergeAudit.run(config);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long[] times(long from, int n) {
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            times[i] = from + i;
        }
        return times;
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + timeout.toSeconds() + " s for: " + what);
            }
            Thread.sleep(100);
        }
    }
}
