package io.sluice.mirror.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The provenance header: one per hop, the last one this copy's; any hop from a cluster closes a loop to it. */
class ProvenanceTest {

    @Test
    void theLastHopIsTheCopyJustMadeAndEveryHopCountsForLoops() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("app", "x".getBytes(StandardCharsets.UTF_8));
        headers.add(Provenance.HEADER, Provenance.value("clusterA", 7));
        headers.add(Provenance.HEADER, Provenance.value("clusterB", 12_345_678_901L));

        assertEquals(Optional.of(new Provenance.Hop("clusterB", 12_345_678_901L)), Provenance.lastHop(headers));
        assertTrue(Provenance.cameFrom(headers, "clusterA"), "the first hop came from A");
        assertTrue(Provenance.cameFrom(headers, "clusterB"));
        assertFalse(Provenance.cameFrom(headers, "cluster"), "a prefix of an ID is another cluster");
        assertFalse(Provenance.cameFrom(headers, "clusterC"));
    }

    @Test
    void theValueReadsAsTheClusterAColonAndTheOffsetInDecimal() {
        byte[] prefix = Provenance.hopPrefix("Xy-9");
        for (long offset : new long[] {0, 9, 10, 99, 100, 1_000_000, 12_345_678_901L, Long.MAX_VALUE}) {
            assertEquals("Xy-9:" + offset, new String(Provenance.value(prefix, offset), StandardCharsets.US_ASCII));
        }
        assertEquals("Xy-9", new String(prefix, StandardCharsets.US_ASCII).replace(":", ""), "the prefix is unchanged");
        assertThrows(IllegalArgumentException.class, () -> Provenance.value(prefix, -1));
    }

    @Test
    void aRecordNoMirrorWroteHasNoHopAndABrokenHeaderIsNamed() {
        assertEquals(Optional.empty(), Provenance.lastHop(new RecordHeaders()));
        RecordHeaders broken = new RecordHeaders();
        broken.add(Provenance.HEADER, "no-offset-here".getBytes(StandardCharsets.US_ASCII));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Provenance.lastHop(broken));
        assertTrue(e.getMessage().contains("<cluster ID>:<offset>") && e.getMessage().contains("no-offset-here"),
                e.getMessage());
    }

    @Test
    void topicNamesKeepThePartitionAndTheTemplateMustHoldTheTopicOnce() {
        assertEquals("orders", TopicNaming.identity().target("orders"));
        assertEquals("dc1.orders", TopicNaming.prefix("dc1.").target("orders"));
        assertEquals("a-orders-b", TopicNaming.template("a-{topic}-b").target("orders"));
        assertTrue(TopicNaming.template("{topic}").isIdentity());
        assertThrows(IllegalArgumentException.class, () -> TopicNaming.template("constant"));
        assertThrows(IllegalArgumentException.class, () -> TopicNaming.template("{topic}{topic}"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TopicNaming.template("dc 1/{topic}"));
        assertTrue(e.getMessage().contains("letters, digits"), e.getMessage());
    }
}
