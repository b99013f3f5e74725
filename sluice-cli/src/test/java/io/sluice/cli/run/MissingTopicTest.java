package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.cli.EngineTestSupport;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A run subscribed to a topic that does not exist, or to a pattern nothing matches, says so at start in words: the
 * consumer waits for it, and without this line the run was silent but for a client warning every second.
 */
class MissingTopicTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aMissingTopicOrAPatternMatchingNothingIsSaidAtStart() {
        String topic = Names.unique("no-such-topic");
        assertEquals(List.of("topic " + topic + " does not exist on the source cluster, or this client may not "
                + "describe it: the run waits for it (--verbose shows the clients' retries meanwhile)"),
                warningsOf(EngineTestSupport.config(kafka, topic).build()));
        String prefix = Names.unique("nothing-matches");
        assertEquals(List.of("no topic of the source cluster that this client may describe matches '" + prefix
                + "-.*': the run waits for one (--verbose shows the clients' retries meanwhile)"),
                warningsOf(EngineTestSupport.config(kafka, "unused").topics()
                        .topicPattern(Pattern.compile(prefix + "-.*")).build()));
    }

    /** What the appender holds now: it appends under its own lock, from the thread that logs (here the admin's). */
    private static List<ILoggingEvent> logged(ListAppender<ILoggingEvent> lines) {
        synchronized (lines) {
            return List.copyOf(lines.list);
        }
    }

    /** The engine's warnings from its start until it is running with nothing to read. */
    private static List<String> warningsOf(EngineConfig config) {
        Logger engineLog = (Logger) LoggerFactory.getLogger("io.sluice.engine");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        engineLog.addAppender(lines);
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> { })) {
            EngineTestSupport.await("the start's check", () -> logged(lines).stream()
                    .anyMatch(e -> e.getFormattedMessage().contains(": the run waits for")));
            return logged(lines).stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .map(ILoggingEvent::getFormattedMessage).toList();
        } finally {
            engineLog.detachAppender(lines);
        }
    }
}
