package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.RecordsLostException;
import io.sluice.core.RecordsLostException.Kind;
import io.sluice.core.RecordsLostException.Loss;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.copy.TopicNaming;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The way on past lost records names Kafka's commands with the mirror's own figures: it said {@code <the target
 * topic>:<partition>} and {@code <the first offset to copy>}, which the mirror knew, and gave the same reset for a topic
 * created again, which mixed the two topics' records in one target topic (a new user's run).
 */
class GapAdviceTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition ORDERS_2 = new TopicPartition("orders", 2);

    @Test
    void recordsDeletedBeforeTheyWereCopiedAreMovedPastWithTheTargetsProgressFilledIn() {
        String advice = advice(MirrorDelivery.EXACTLY_ONCE, new Loss(ORDERS_0, Kind.DELETED, 100, 150),
                new Loss(ORDERS_2, Kind.DELETED, 120, 150), new Loss(ORDERS_1, Kind.DELETED, 90, 300));
        assertTrue(advice.contains("stop every instance of the mirror, move the progress with Kafka's tool, and start it "
                + "again: kafka-consumer-groups.sh --bootstrap-server target:9092 --group sluice-mirror.eu "
                + "--reset-offsets --topic dc1.orders:0,2 --to-offset 150 --execute; then kafka-consumer-groups.sh "
                + "--bootstrap-server target:9092 --group sluice-mirror.eu --reset-offsets --topic dc1.orders:1 "
                + "--to-offset 300 --execute."), advice);
        assertFalse(advice.contains("<"), "no placeholder left: " + advice);
    }

    @Test
    void atLeastOnceTheProgressIsTheSourceGroupsUnderTheSourceTopic() {
        String advice = advice(MirrorDelivery.AT_LEAST_ONCE, new Loss(ORDERS_1, Kind.DELETED, 90, 300));
        assertTrue(advice.contains("kafka-consumer-groups.sh --bootstrap-server source:9092 --group sluice-mirror.eu "
                + "--reset-offsets --topic orders:1 --to-offset 300 --execute"), advice);
    }

    @Test
    void aTopicCreatedAgainIsSentToATargetTopicOfItsOwnNotReset() {
        String advice = advice(MirrorDelivery.EXACTLY_ONCE, new Loss(ORDERS_0, Kind.RECREATED, 1000, -1),
                new Loss(ORDERS_1, Kind.RECREATED, 1000, -1));
        assertFalse(advice.contains("--reset-offsets"), advice);
        assertEquals(1, advice.split("Source topic orders was deleted and created again", -1).length - 1,
                "said once for the topic: " + advice);
        assertTrue(advice.contains("its records are not the ones target topic dc1.orders holds copies of"), advice);
        assertTrue(advice.contains("or delete dc1.orders and the mirror's progress of it (kafka-consumer-groups.sh "
                + "--bootstrap-server target:9092 --group sluice-mirror.eu --delete-offsets --topic dc1.orders)"),
                advice);
    }

    private static String advice(MirrorDelivery delivery, Loss... losses) {
        MirrorConfig config = MirrorConfig.builder().name("eu").sourceProperties(Map.of("bootstrap.servers",
                "source:9092")).targetProperties(Map.of("bootstrap.servers", "target:9092")).topics("orders")
                .naming(TopicNaming.template("dc1.{topic}")).delivery(delivery).build();
        return new GapAdvice(config).of(new RecordsLostException("records lost", "engine advice", List.of(losses)));
    }
}
