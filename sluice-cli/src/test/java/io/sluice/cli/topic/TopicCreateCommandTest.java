package io.sluice.cli.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/** {@code sluice topic create} on the test broker, which, as the quick start's, creates no topic by itself. */
class TopicCreateCommandTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void createsTheTopicAsAskedAndRefusesOneThatExistsUnlessTold() throws Exception {
        String topic = Names.unique("created");
        Cli.Result made = Cli.run("topic", "create", "-b", kafka.bootstrapServers(), "-t", topic, "--partitions", "3",
                "--config", "retention.ms=3600000");
        assertEquals(ExitStatus.OK, made.status(), made.err());
        assertEquals("created topic " + topic + " with 3 partitions", made.out().strip());
        assertEquals(3, kafka.admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().size());
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = kafka.admin().describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS)
                .get(resource);
        assertEquals("3600000", config.get("retention.ms").value());

        Cli.Result again = Cli.run("topic", "create", "-b", kafka.bootstrapServers(), "-t", topic);
        assertEquals(ExitStatus.FAILURE, again.status(), again.err());
        assertTrue(again.err().contains("topic " + topic + " exists already; nothing changed"), again.err());
        Cli.Result fine = Cli.run("topic", "create", "-b", kafka.bootstrapServers(), "-t", topic, "--if-not-exists");
        assertEquals(ExitStatus.OK, fine.status(), fine.err());

        Cli.Result none = Cli.run("topic", "create", "-b", kafka.bootstrapServers());
        assertEquals(ExitStatus.USAGE, none.status(), none.err());
        assertTrue(none.err().contains("name a topic: -t NAME (repeat -t, or separate names with commas, for more "
                + "with the same settings)"), none.err());

        // several at once, as -t takes them everywhere (it said "name one topic")
        String dlq = Names.unique("created-dlq");
        Cli.Result two = Cli.run("topic", "create", "-b", kafka.bootstrapServers(), "-t", topic + "," + dlq,
                "--partitions", "2", "--if-not-exists");
        assertEquals(ExitStatus.OK, two.status(), two.err());
        assertEquals(List.of("topic " + topic + " exists already; left as it is", "created topic " + dlq + " with 2 "
                + "partitions"), two.out().strip().lines().toList());
    }
}
