package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

/** A failure's chain of causes: outermost first, each once, a kind found at any depth. */
class CausesTest {

    @Test
    void theChainRunsFromTheFailureToItsRootAndAKindIsFoundAtAnyDepth() {
        IOException root = new IOException("connection refused");
        UncheckedIOException middle = new UncheckedIOException("cannot write", root);
        KafkaException outer = new KafkaException(middle);
        assertEquals(List.of(outer, middle, root), Causes.of(outer));
        assertSame(root, Causes.find(outer, IOException.class).orElseThrow());
        assertSame(outer, Causes.find(outer, RuntimeException.class).orElseThrow(), "the outermost of the kind");
        assertTrue(Causes.has(outer, UncheckedIOException.class));
        assertFalse(Causes.has(outer, IllegalStateException.class));
        assertEquals(List.of(), Causes.of(null));
        assertEquals(Optional.empty(), Causes.find(null, IOException.class));
    }

    @Test
    void aCauseThatPointsBackAlongTheChainEndsIt() {
        IllegalStateException first = new IllegalStateException("first");
        IllegalArgumentException second = new IllegalArgumentException("second", first);
        first.initCause(second); // a cycle, as a library may make when it wraps what wrapped it
        assertEquals(List.of(first, second), Causes.of(first));
        assertFalse(Causes.has(first, IOException.class), "and a search of it ends");
    }
}
