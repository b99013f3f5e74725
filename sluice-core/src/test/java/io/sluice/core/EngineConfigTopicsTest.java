package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the engine consumes: named topics or a pattern, exactly one of them, and never its own dead letters. */
class EngineConfigTopicsTest {

    private static EngineConfig.Builder base() {
        return EngineConfig.builder().bootstrapServers("localhost:9092").groupId("g");
    }

    private static String refusal(EngineConfig.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void aPatternReplacesTheTopicList() {
        EngineConfig config = base().topicPattern(Pattern.compile("orders-.*")).build();
        assertEquals(List.of(), config.topics());
        assertEquals("orders-.*", config.topicPattern().orElseThrow().pattern());
        assertEquals(java.util.Optional.empty(), base().topics("orders").build().topicPattern());
    }

    @Test
    void topicsAndAPatternAreOneOrTheOther() {
        assertEquals("topics is required: name at least one topic to consume, or give a topic pattern",
                refusal(base()));
        assertEquals("name topics or give a topic pattern, not both",
                refusal(base().topics("orders").topicPattern(Pattern.compile("orders-.*"))));
    }

    @Test
    void theDeadLetterTopicMustNotMatchThePattern() {
        assertEquals("the dead-letter topic must not match the topic pattern: the engine would consume its own dead "
                + "letters", refusal(base().topicPattern(Pattern.compile("orders.*"))
                        .failureOutcome(FailureOutcome.DEAD_LETTER).deadLetterTopic("orders.dlt")));
        assertEquals("orders.dlt", base().topicPattern(Pattern.compile("orders-.*"))
                .failureOutcome(FailureOutcome.DEAD_LETTER).deadLetterTopic("orders.dlt").build().deadLetterTopic());
    }
}
