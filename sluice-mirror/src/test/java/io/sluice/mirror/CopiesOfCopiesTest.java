package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.mirror.copy.TopicNaming;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A mirror within one cluster whose copies its own topic selection matches would copy its copies without end (a new
 * user's {@code {topic}-copy} under {@code orders-.*} made a generation of topics every 30 s): refused.
 */
class CopiesOfCopiesTest {

    private static MirrorConfig.Builder mirror() {
        return MirrorConfig.builder().name("m").sourceProperties(java.util.Map.of("bootstrap.servers", "a:1"))
                .targetProperties(java.util.Map.of("bootstrap.servers", "a:1"));
    }

    @Test
    void aPatternThatMatchesTheCopiesIsRefusedAndOneThatDoesNotIsNot() {
        MirrorConfig loop = mirror().topicPattern(Pattern.compile("orders-.*"))
                .naming(TopicNaming.template("{topic}-copy")).build();
        assertEquals(Optional.of("the source and the target are the same cluster, and the copy of orders-a "
                + "(orders-a-copy) is itself a topic this mirror copies ('orders-.*'): it would copy its own copies, a "
                + "new topic each time, without end. Name the copies so that the topics to copy do not match them"),
                loop.copiesItsCopies(List.of("clicks", "orders-a")));
        MirrorConfig prefixed = mirror().topicPattern(Pattern.compile("orders-.*"))
                .naming(TopicNaming.template("copy.{topic}")).build();
        assertEquals(Optional.empty(), prefixed.copiesItsCopies(List.of("orders-a", "copy.orders-a")));
    }

    @Test
    void aListThatNamesACopyIsRefused() {
        MirrorConfig listed = mirror().topics("a", "a-copy").naming(TopicNaming.template("{topic}-copy")).build();
        assertTrue(listed.copiesItsCopies(List.of()).orElseThrow().contains("the copy of a (a-copy) is itself a topic "
                + "this mirror copies (the topic list)"));
        assertEquals(Optional.empty(), mirror().topics("a", "b").naming(TopicNaming.template("{topic}-copy")).build()
                .copiesItsCopies(List.of()));
    }
}
