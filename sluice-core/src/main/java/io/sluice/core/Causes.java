package io.sluice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A failure and its causes, outermost first, for telling what kind of failure it was: clients wrap what went wrong
 * (Kafka's producer a failed transaction's cause, the AWS SDK an I/O error, the engine a sink's failure), so a kind is
 * found at any depth. Each exception once: a cause that points back along the chain (a library's cycle) ends it.
 *
 * <p>Threading: stateless.
 */
public final class Causes {

    private Causes() {
    }

    /** {@code failure}, then its cause, then that one's, to the root; empty for null. */
    public static List<Throwable> of(Throwable failure) {
        List<Throwable> chain = new ArrayList<>(4);
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The outermost of {@code failure} and its causes that is a {@code kind}; empty when none is. */
    public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> kind) {
        for (Throwable t : of(failure)) {
            if (kind.isInstance(t)) {
                return Optional.of(kind.cast(t));
            }
        }
        return Optional.empty();
    }

    /** Whether {@code failure} or one of its causes is a {@code kind}. */
    public static boolean has(Throwable failure, Class<? extends Throwable> kind) {
        return find(failure, kind).isPresent();
    }
}
